import { ACTION_TARGET_HOURS } from "../../contract/moderation.ts";

export type SendMail = (mail: { to: string; subject: string; body: string }) => Promise<void>;
export type NoticeOutcome = "received" | "dismissed" | "actioned";

/**
 * DSA art. 16: the notifier is told that the notice arrived and, once decided, what was decided. Sent after the
 * decision commits (a mail never rolls a decision back); English, as the notifier has no account and no language.
 */
export function notifierOf(sendMail: SendMail) {
  return async function tellNotifier(report: { id: number; source: string; contactEmail: string | null }, outcome: NoticeOutcome) {
    if (report.source !== "notice" || !report.contactEmail) return;
    const body = {
      received: `We received your notice #${report.id}. A moderator will review it; valid removal requests are acted on within ${ACTION_TARGET_HOURS} hours.`,
      dismissed: `We reviewed your notice #${report.id} and found no breach of our rules, so the content stays available.`,
      actioned: `We reviewed your notice #${report.id} and removed the content.`,
    }[outcome];
    await sendMail({ to: report.contactEmail, subject: `Reverie: your notice #${report.id}`, body });
  };
}

export type TellNotifier = ReturnType<typeof notifierOf>;
