import { z } from "zod";
import { REPORT_TARGETS } from "../../contract/moderation.ts";
import { UPLOAD_KINDS } from "../../contract/uploads.ts";

/** What the console answers of preserved evidence: its list, a file to view and the NCMEC-shaped export (decision 152). */

/** evidence list  */
export const evidenceRecord = z.object({
  id: z.number(),
  targetType: z.enum(REPORT_TARGETS),
  targetId: z.number(),
  createdAt: z.date(),
  kind: z.enum(UPLOAD_KINDS),
  userId: z.number().nullable(),
  storageKey: z.string(),
  mime: z.string().nullable(),
  sizeBytes: z.number(),
  sha256: z.string(),
  reportId: z.number().nullable(),
  keepUntil: z.date(),
  sourceKey: z.string(),
  md5: z.string(),
});

/** evidence view file */
export const evidenceFileAnswer = z.object({
  id: z.number(),
  kind: z.enum(UPLOAD_KINDS),
  url: z.string(),
});

/** evidence action export */
export const evidenceExportAnswer = z.object({
  prepared_by_staff_id: z.number(),
  evidence_id: z.number(),
  generated_at: z.string(),
  submission: z.string(),
  incidentSummary: z.object({
    incidentType: z.string(),
    incidentDateTime: z.string(),
    incidentDateTimeDescription: z.string(),
  }),
  internetDetails: z.array(
    z.object({
      webPageIncident: z.object({
        url: z.array(z.string()),
        additionalInfo: z.string(),
      }),
    }),
  ),
  reporter: z.object({
    reportingPerson: z.object({
      email: z.string().nullable(),
    }),
    companyUrl: z.string(),
  }),
  personOrUserReported: z
    .object({
      espIdentifier: z.string(),
      espService: z.string(),
      screenName: z.string(),
      personOrUserReportedPerson: z.object({
        email: z.array(z.string()),
      }),
      additionalIdentifiers: z.object({
        uuid: z.string(),
        googleSubject: z.string().nullable(),
        channelPlayerId: z.string().nullable(),
        accountCreated: z.string(),
      }),
      ipCaptureEvent: z.array(
        z.object({
          ipAddress: z.string().nullable(),
          eventName: z.string(),
          dateTime: z.string(),
        }),
      ),
    })
    .nullable(),
  files: z.array(
    z.object({
      fileName: z.string(),
      originalFileName: z.string(),
      mimeType: z.string().nullable(),
      sizeBytes: z.number(),
      originalFileHash: z.array(
        z.object({
          hashType: z.string(),
          value: z.string(),
        }),
      ),
      fileViewedByEsp: z.null(),
      publiclyAvailable: z.null(),
      details: z.array(
        z.object({
          name: z.string(),
          value: z.string(),
        }),
      ),
    }),
  ),
  additionalInfo: z.string(),
  keep_until: z.string(),
});
