import { useEffect, useState, type RefObject } from "react";

/** What a floating control must never lie over: a page's primary action, the balance (issue 31 item 7). */
export const KEEP_CLEAR = { "data-keep-clear": "" } as const;

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return b.width > 0 && b.height > 0 && a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
}

/**
 * True while the element would cover anything marked KEEP_CLEAR. On a 360 px phone a full-width "Generate video"
 * and the balance line pass under any corner a bubble can take, so the bubble steps aside while they do instead of
 * hiding them (docs/decisions/283). Checked once a frame at most, on scroll, resize, page changes and layout shifts.
 */
export function useCoversKeptClear(ref: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [covers, setCovers] = useState(false);
  useEffect(() => {
    if (!enabled) {
      setCovers(false);
      return;
    }
    let frame = 0;
    const check = () => {
      frame = 0;
      const own = ref.current?.getBoundingClientRect();
      if (!own) return;
      setCovers([...document.querySelectorAll("[data-keep-clear]")].some((el) => overlaps(own, el.getBoundingClientRect())));
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(check);
    };
    const changes = new MutationObserver(schedule);
    changes.observe(document.body, { childList: true, subtree: true });
    // a picture that loads moves what lies below it without any change to the page's elements
    const layout = new ResizeObserver(schedule);
    layout.observe(document.body);
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      changes.disconnect();
      layout.disconnect();
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
    };
  }, [enabled, ref]);
  return covers;
}
