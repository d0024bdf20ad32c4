import type { ReactNode } from "react";
import { useSession } from "./session.ts";

/**
 * SPEC.md §6 button-level permissions: an element is shown only when the signed-in user's `authBtnList` (the
 * server's CASL rules as "action:Subject" strings) holds the permission — one, any of several, or all of them.
 * This only hides what the server would refuse anyway; the server checks every request itself.
 */
export type PermissionNeed = { permission: string } | { anyOf: readonly string[] } | { allOf: readonly string[] };

export function allows(list: readonly string[] | undefined, need: PermissionNeed): boolean {
  if (!list) return false;
  if ("permission" in need) return list.includes(need.permission);
  if ("anyOf" in need) return need.anyOf.some((p) => list.includes(p));
  return need.allOf.length > 0 && need.allOf.every((p) => list.includes(p));
}

export function usePermission(need: PermissionNeed): boolean {
  return allows(useSession().user?.authBtnList, need);
}

export function Can({ children, fallback = null, ...need }: PermissionNeed & { children: ReactNode; fallback?: ReactNode }) {
  return <>{usePermission(need as PermissionNeed) ? children : fallback}</>;
}
