import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "../../db/client.ts";
import { hashPassword } from "../auth/password.ts";
import { newTotpSecret, otpauthUri } from "../auth/totp.ts";
import type { Logger } from "pino";
import type { Config } from "../../config.ts";

/**
 * Creates the first admin once. Its password (ADMIN_PASSWORD, or a random one) and one-time-code secret
 * are printed once and written to $DATA_DIR/admin-credentials.txt (readable by the owner only).
 */
export async function seedStaff(db: Db, { config, log }: { config: Config; log: Logger }): Promise<void> {
  if (await db.staff.findUnique({ where: { username: config.ADMIN_USERNAME } })) return;
  const password = config.ADMIN_PASSWORD ?? crypto.randomBytes(12).toString("base64url");
  const totpSecret = newTotpSecret();
  await db.staff.create({ data: { username: config.ADMIN_USERNAME, passwordHash: await hashPassword(password), totpSecret, roles: ["admin"] } });
  const text = [
    `Reverie console: ${config.publicUrl}/console`,
    `username: ${config.ADMIN_USERNAME}`,
    `password: ${password}`,
    `one-time code secret (add to an authenticator app): ${totpSecret}`,
    `otpauth URI: ${otpauthUri(config.ADMIN_USERNAME, totpSecret)}`,
  ].join("\n");
  await fs.mkdir(config.dataDir, { recursive: true });
  await fs.writeFile(path.join(config.dataDir, "admin-credentials.txt"), `${text}\n`, { mode: 0o600 });
  log.warn(`\n=== First admin account created (shown once; also in ${path.join(config.dataDir, "admin-credentials.txt")}) ===\n${text}\n`);
}
