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
export function createMailer(db: Db, opts: { smtpUrl?: string; from: string; log: Logger; printToLog: boolean }) {
  const { smtpUrl } = opts;
  let transport: Promise<Transporter> | undefined;
  return {
    async send(mail: Mail): Promise<void> {
      const row = await db.outboxEmail.create({ data: masked(mail) });
      if (!smtpUrl) {
        if (opts.printToLog) opts.log.info({ to: mail.to, subject: mail.subject, body: mail.body }, "email kept in outbox (no SMTP_URL)");
        return;
      }
      try {
        // loaded on first use, keeping it out of start-up time
        transport ??= import("nodemailer").then((m) => m.default.createTransport(smtpUrl));
        await (await transport).sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.body });
        await db.outboxEmail.update({ where: { id: row.id }, data: { sentAt: new Date() } });
      } catch (err) {
        await db.outboxEmail.update({ where: { id: row.id }, data: { error: (err as Error).message } });
        opts.log.error({ err, to: mail.to }, "email sending failed");
      }
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;
