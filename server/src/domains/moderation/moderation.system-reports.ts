import type { ReportBody } from "./moderation.schema.ts";

type FileReport = (reporterUserId: null, input: ReportBody, o: { system: true }) => Promise<{ id: number }>;

/**
 * Where other domains file reports as the system (chat's policy strikes). Chat is built before moderation, since
 * moderation sees and changes chat's content through chat; so chat is given this port, and moderation is connected to
 * it as soon as it is built (services.ts). Nothing is filed before then: a request is served only once wiring is done.
 */
export function createSystemReports() {
  let fileReport: FileReport | undefined;
  return {
    /** Files a report with no reporter, as the system (moderation.fileReport). */
    file(input: ReportBody) {
      if (!fileReport) throw new Error("A system report was filed before moderation was connected");
      return fileReport(null, input, { system: true });
    },
    connect(moderation: { fileReport: FileReport }) {
      fileReport = moderation.fileReport;
    },
  };
}
