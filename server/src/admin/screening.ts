import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import { screeningFilter, screeningReviewBody, screeningSortable, uploadScreeningRecord, uploadScreeningRow } from "../domains/screening/screening.schema.ts";
import type { ScreeningService } from "../domains/screening/screening.service.ts";

/** Upload screening for moderators (issue 19): the queue of held uploads with the apparent age, approve / reject. */
export function screeningResource(api: ApiRouter, screening: ScreeningService) {
  const r = new AdminResource(api, "upload-screenings", "UploadScreening");
  r.list({ filter: screeningFilter, sortable: screeningSortable, row: uploadScreeningRow }, (p) => screening.list(p));
  r.get(uploadScreeningRecord, (id) => screening.get(id));
  r.action(
    "review",
    {
      summary: "Approve a held upload (it becomes usable) or reject it with a reason (never usable)",
      can: ["review", "UploadScreening"],
      body: screeningReviewBody,
      response: uploadScreeningRecord,
    },
    (id, body, staff) => screening.review(staff.staffId, id, body.decision, body.reason),
  );
}
