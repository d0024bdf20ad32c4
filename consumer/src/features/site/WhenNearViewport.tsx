import { useEffect, useRef, useState, type ReactNode } from "react";
import Box from "@mui/material/Box";

/** Renders its children only once its place comes within `margin` of the viewport (0: once it is actually scrolled to), so below-the-fold sections cost the first paint nothing. */
export function WhenNearViewport({ children, minHeight, margin = "0px" }: { children: ReactNode; minHeight: number; margin?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === "undefined") return void setNear(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, margin]);
  return (
    <Box ref={ref} sx={{ minHeight: near ? undefined : minHeight }}>
      {near && children}
    </Box>
  );
}
