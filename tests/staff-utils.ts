import crypto from "node:crypto";
import type { StaffRole } from "../server/src/db/generated/enums.ts";
import { hashPassword } from "../server/src/domains/auth/password.ts";
import { newTotpSecret, totpCode } from "../server/src/domains/auth/totp.ts";
import type { TestApp } from "./db-utils.ts";

export interface StaffLogin {
  token: string;
  staffId: number;
  username: string;
  password: string;
  totpSecret: string;
}

/** A staff member with these roles, created in the database and signed in through POST /admin/api/login. */
export async function staffMember(t: Pick<TestApp, "db" | "http">, roles: StaffRole[], username = `${roles.join("-") || "none"}-${crypto.randomBytes(3).toString("hex")}`): Promise<StaffLogin> {
  const password = `pw-${crypto.randomBytes(8).toString("hex")}`;
  const totpSecret = newTotpSecret();
  await t.db.staff.create({ data: { username, roles, passwordHash: await hashPassword(password), totpSecret } });
  const res = await t.http.post("/admin/api/login").send({ username, password, code: totpCode(totpSecret) }).expect(200);
  return { token: res.body.data.token, staffId: res.body.data.staffId, username, password, totpSecret };
}
