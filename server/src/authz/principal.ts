import type { StaffRole, UserRole } from "../db/generated/enums.ts";

export interface UserPrincipal {
  kind: "user";
  sessionId: number;
  userId: number;
  role: UserRole;
  banned: boolean;
  /** The account as read with the session at the start of this request (set by the session lookup). */
  account?: Account;
}

/** The users columns personal_info shows, as one row of SQL (snake_case, as PostgreSQL returns them). */
export interface Account {
  uuid: string;
  nickname: string | null;
  supplier_id: number | null;
  login_type: string;
  email: string | null;
  title: string | null;
  photo: string | null;
  /** the profile photo chosen from the person's uploads (a storage key, signed when shown) */
  photo_key: string | null;
  /** created_at in Unix seconds */
  created_s: number;
  role: string;
  bemob_click_id: string | null;
  language: string;
  points: number;
  all_points: number;
  payment_permission: boolean;
  free_generations: number;
  /** the sign-in methods linked besides the email (personal_info's sign_in_methods) */
  google_linked: boolean;
  telegram_linked: boolean;
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
