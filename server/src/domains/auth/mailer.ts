import type { Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Db } from "../../db/client.ts";

export interface Mail {
  to: string;
  subject: string;
  body: string;
  /** Text only the recipient may read (a login code): sent, but masked in the outbox that staff can read. */
  secret?: string;
}

const MASK = "••••••";

/** The operator's brand as emails show it (docs/decisions/289): the name for "Reverie", the logo above the text. */
export interface MailBrand {
  name: string;
  /** absolute, fetchable by the reader's mail program; null when no logo is set */
  logoUrl: string | null;
}

const DEFAULT_NAME = "Reverie";
const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Each template writes the product's name as "Reverie"; the operator's name takes its place in subject and body. */
function branded(mail: Mail, brand: MailBrand): Mail {
  const named = (text: string) => text.split(DEFAULT_NAME).join(brand.name);
  return { ...mail, subject: named(mail.subject), body: named(mail.body) };
}

/** With a logo, an HTML part beside the text: the logo, then the same text. */
function htmlOf(mail: Mail, brand: MailBrand): string | undefined {
  if (!brand.logoUrl) return undefined;
  const logo = `<p><img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" height="40"></p>`;
  return `${logo}<div style="white-space:pre-wrap">${escapeHtml(mail.body)}</div>`;
}

/** The copy staff may see: the secret replaced wherever it appears. */
function masked(mail: Mail): { to: string; subject: string; body: string } {
  const hide = (text: string) => (mail.secret ? text.split(mail.secret).join(MASK) : text);
  return { to: mail.to, subject: hide(mail.subject), body: hide(mail.body) };
}

/**
 * Every email is recorded in the outbox first, secrets masked (docs/decisions/072). With SMTP_URL set it is then sent
 * with nodemailer; without it nothing is delivered: the outbox keeps the masked copy, and only in development is the
 * whole email printed to the server's own log.
 */
export function createMailer(db: Db, opts: { smtpUrl?: string; from: string; log: Logger; printToLog: boolean; brand: () => Promise<MailBrand> }) {
  const { smtpUrl } = opts;
  let transport: Promise<Transporter> | undefined;
  return {
    async send(template: Mail): Promise<void> {
      const brand = await opts.brand();
      const mail = branded(template, brand);
      const row = await db.outboxEmail.create({ data: masked(mail) });
      if (!smtpUrl) {
        if (opts.printToLog) opts.log.info({ to: mail.to, subject: mail.subject, body: mail.body }, "email kept in outbox (no SMTP_URL)");
        return;
      }
      try {
        // loaded on first use, keeping it out of start-up time
        transport ??= import("nodemailer").then((m) => m.default.createTransport(smtpUrl));
        await (await transport).sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.body, html: htmlOf(mail, brand) });
        await db.outboxEmail.update({ where: { id: row.id }, data: { sentAt: new Date() } });
      } catch (err) {
        await db.outboxEmail.update({ where: { id: row.id }, data: { error: (err as Error).message } });
        opts.log.error({ err, to: mail.to }, "email sending failed");
      }
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;
