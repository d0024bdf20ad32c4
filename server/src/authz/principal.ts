import type { StaffRole, UserRole } from "../db/generated/enums.ts";

export interface UserPrincipal {
  kind: "user";
  sessionId: number;
  userId: number;
  role: UserRole;
  banned: boolean;
}

export interface StaffPrincipal {
  kind: "staff";
  sessionId: number;
  staffId: number;
  username: string;
  roles: StaffRole[];
}

export interface AnonymousPrincipal {
  kind: "anonymous";
}

export type Principal = UserPrincipal | StaffPrincipal | AnonymousPrincipal;

export const anonymous: AnonymousPrincipal = { kind: "anonymous" };
