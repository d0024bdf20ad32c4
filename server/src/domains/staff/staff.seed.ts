import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "../../db/client.ts";
import { hashPassword } from "../auth/password.ts";
import { newTotpSecret, otpauthUri } from "../auth/totp.ts";
import type { Logger } from "pino";
import QRCode from "qrcode";
import type { Config } from "../../config.ts";

/**
 * The first admin's sign-in as a person reads it in the terminal: aligned lines and a QR code of the otpauth URI for
 * the authenticator app, not a log line (a JSON line escapes the newlines, and log collectors should not keep secrets).
 */
async function credentialsBlock(c: { console: string; username: string; password: string; totpSecret: string; file: string }): Promise<string> {
  const qr = await QRCode.toString(otpauthUri(c.username, c.totpSecret), { type: "terminal", small: true });
  const line = (label: string, value: string) => `  ${`${label}:`.padEnd(23)}${value}`;
  return [
    "",
    "  Reverie: the first admin account (shown once)",
    "",
    line("console", c.console),
    line("username", c.username),
    line("password", c.password),
    line("one-time code secret", c.totpSecret),
    "",
    "  Scan this with an authenticator app (or type the secret in):",
    qr.replace(/^/gm, "  "),
    `  Also kept in ${c.file} (readable by this account only).`,
    "",
    "",
  ].join("\n");
}

/**
 * Creates the first admin once. Its password (ADMIN_PASSWORD, or a random one) and one-time-code secret are printed
 * once to the terminal (`print`) and written to $DATA_DIR/admin-credentials.txt (readable by the owner only).
 */
export async function seedStaff(
  db: Db,
  { config, log, print = (text) => process.stdout.write(text) }: { config: Config; log: Logger; print?: (text: string) => void },
): Promise<void> {
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
  const file = path.join(config.dataDir, "admin-credentials.txt");
  await fs.mkdir(config.dataDir, { recursive: true });
  await fs.writeFile(file, `${text}\n`, { mode: 0o600 });
  print(await credentialsBlock({ console: `${config.publicUrl}/console`, username: config.ADMIN_USERNAME, password, totpSecret, file }));
  log.warn({ file }, "first admin account created; its password and one-time-code secret were printed once and are kept in the file");
}
