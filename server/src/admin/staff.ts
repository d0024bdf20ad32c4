import type { ApiRouter } from "../http/api.ts";
import { AdminResource, reasonBody } from "./resource.ts";
import type { AuditService } from "../domains/audit/audit.service.ts";
import { auditFilter, auditLogRecord, auditSortable } from "../domains/audit/audit.schema.ts";
import type { StaffService } from "../domains/staff/staff.service.ts";
import {
  outboxFilter,
  outboxRecord,
  outboxSortable,
  staffCreateBody,
  staffFilter,
  staffRecord,
  staffRecord2,
  staffRow,
  staffSortable,
  staffUpdateBody,
} from "../domains/staff/staff.schema.ts";

/** Staff accounts (admin), the audit log (read-only) and the email outbox. (/admin/api/me is domains/staff/staff.routes.ts.) */
export function staffResource(api: ApiRouter, staff: StaffService, audit: AuditService) {
  const r = new AdminResource(api, "staff", "Staff");
  r.list({ filter: staffFilter, sortable: staffSortable, row: staffRow }, (p) => staff.list(p));
  r.get(staffRecord, (id) => staff.get(id));
  r.create(staffCreateBody, staffRecord2, (body, me) => staff.create(me.staffId, body));
  r.update(staffUpdateBody, staffRecord, (id, body, me) => staff.update(me.staffId, id, body));
  r.action(
    "reset-password",
    { summary: "New password and one-time-code secret, shown once", can: ["update", "Staff"], body: reasonBody, response: staffRecord2 },
    (id, body, me) => staff.resetPassword(me.staffId, id, body.reason),
  );

  const log = new AdminResource(api, "audit-log", "AuditLog");
  log.list({ filter: auditFilter, sortable: auditSortable, row: auditLogRecord }, (p) => audit.list(p));
  log.get(auditLogRecord, (id) => audit.get(id));

  const outbox = new AdminResource(api, "outbox", "OutboxEmail");
  outbox.list({ filter: outboxFilter, sortable: outboxSortable, row: outboxRecord }, (p, me) => staff.outbox.list(me.staffId, p));
  outbox.get(outboxRecord, (id, me) => staff.outbox.get(me.staffId, id));
}
