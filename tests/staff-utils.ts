import crypto from "node:crypto";
import type { StaffRole } from "../server/src/db/generated/enums.ts";
import { hashPassword } from "../server/src/domains/auth/password.ts";
import { newTotpSecret, totpCode, totpStep } from "../server/src/domains/auth/totp.ts";
import type { TestApp } from "./db-utils.ts";

export interface StaffCredentials {
  staffId: number;
  username: string;
  password: string;
  totpSecret: string;
  /** The last one-time code step this test used: the server accepts each step once. */
  lastStep?: number;
  /** Moves the server's record of the last step used back to the one before `step` (see freshTotpCode). */
  rewindLastStep?: (step: number) => Promise<unknown>;
}

export interface StaffLogin extends StaffCredentials {
  token: string;
}

/** A staff member with these roles, created in the database, not signed in. */
export async function newStaff(
  t: Pick<TestApp, "db">,
  roles: StaffRole[] = ["admin"],
  username = `${roles.join("-") || "none"}-${crypto.randomBytes(3).toString("hex")}`,
): Promise<StaffCredentials> {
  const password = `pw-${crypto.randomBytes(8).toString("hex")}`;
  const totpSecret = newTotpSecret();
  const row = await t.db.staff.create({ data: { username, roles, passwordHash: await hashPassword(password), totpSecret } });
  const rewindLastStep = (step: number) => t.db.staff.update({ where: { id: row.id }, data: { totpLastStep: step - 1 } });
  return { staffId: row.id, username, password, totpSecret, rewindLastStep };
}

/**
 * A one-time code this staff member has not used yet: the current step's, else the next step's (accepted for clock
 * drift). When both are used up (a third sign-in within 30 s), the server's record of the last step used is moved back
 * rather than waiting up to 30 s for the clock: each sign-in still needs the code of a step the server takes and has not
 * seen since (the replay rule itself is tested in staff.routes.test.ts). Marks the step used.
 */
export async function freshTotpCode(s: StaffCredentials): Promise<string> {
  let step = Math.max(totpStep(), (s.lastStep ?? 0) + 1);
  if (step > totpStep() + 1 && s.rewindLastStep) {
    step = totpStep();
    await s.rewindLastStep(step);
  }
  const waitMs = (step - 1) * 30_000 - Date.now();
  if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs + 50));
  s.lastStep = step;
  return totpCode(s.totpSecret, step * 30_000);
}

/** A staff member with these roles, created in the database and signed in through POST /admin/api/login. */
export async function staffMember(t: Pick<TestApp, "db" | "http">, roles: StaffRole[] = ["admin"], username?: string): Promise<StaffLogin> {
  const s = await newStaff(t, roles, username);
  const res = await t.http
    .post("/admin/api/login")
    .send({ username: s.username, password: s.password, code: await freshTotpCode(s) })
    .expect(200);
  return { ...s, token: res.body.data.token };
}
