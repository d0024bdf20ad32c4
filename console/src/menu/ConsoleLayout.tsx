import type { ReactNode } from "react";
import { Layout } from "react-admin";
import { ConsoleMenu } from "./ConsoleMenu.tsx";

/**
 * react-admin's layout with the grouped menu. Its root is `min-width: fit-content`, so one wide table made the whole
 * page (app bar included) ~840 px wide on a 360 px phone; here the page keeps the screen's width and a wide list scrolls
 * sideways inside the content area instead (docs/decisions/294).
 */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <Layout menu={ConsoleMenu} sx={{ minWidth: 0, "& .RaLayout-content": { minWidth: 0, overflowX: "auto" } }}>
      {children}
    </Layout>
  );
}
