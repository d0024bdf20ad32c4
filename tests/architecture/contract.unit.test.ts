import { describe, expect, it } from "vitest";
import * as prismaEnums from "../../server/src/db/generated/enums.ts";
import { CREATOR_MEMBERSHIP_STATUSES, CUSTOM_REQUEST_STATUSES, LIBRARY_VISIBILITIES } from "../../server/src/contract/creators.ts";
import { GENERATION_MODES, TASK_STATUSES } from "../../server/src/contract/generation.ts";
import {
  APPEAL_STATUSES,
  BAN_MARK_KINDS,
  CONTENT_STATES,
  DECISION_ACTIONS,
  DECISION_GROUNDS,
  REPORT_REASONS,
  REPORT_SOURCES,
  REPORT_STATUSES,
  REPORT_TARGETS,
} from "../../server/src/contract/moderation.ts";
import { ORDER_STATUSES, PRODUCT_KINDS } from "../../server/src/contract/orders.ts";
import { ACCOUNT_DELETION_STATUSES, DATA_EXPORT_STATUSES } from "../../server/src/contract/privacy.ts";
import { STAFF_ROLES } from "../../server/src/contract/staff.ts";
import { TRAINING_STATUSES } from "../../server/src/contract/training.ts";
import { UPLOAD_KINDS } from "../../server/src/contract/uploads.ts";
import { LOGIN_TYPES, USER_ROLES } from "../../server/src/contract/users.ts";

/**
 * The browser apps cannot import Prisma's generated code, so the contract keeps the lists and this test holds them to
 * the database's enums (docs/decisions/050): a new enum value in prisma/schema.prisma fails here until the contract has it.
 */
const pairs: [keyof typeof prismaEnums, readonly string[]][] = [
  ["GenerationMode", GENERATION_MODES],
  ["TaskStatus", TASK_STATUSES],
  ["ContentState", CONTENT_STATES],
  ["ReportReason", REPORT_REASONS],
  ["ReportStatus", REPORT_STATUSES],
  ["ReportTarget", REPORT_TARGETS],
  ["ReportSource", REPORT_SOURCES],
  ["DecisionAction", DECISION_ACTIONS],
  ["DecisionGround", DECISION_GROUNDS],
  ["AppealStatus", APPEAL_STATUSES],
  ["BanMarkKind", BAN_MARK_KINDS],
  ["OrderStatus", ORDER_STATUSES],
  ["ProductKind", PRODUCT_KINDS],
  ["StaffRole", STAFF_ROLES],
  ["UploadKind", UPLOAD_KINDS],
  ["LoginType", LOGIN_TYPES],
  ["UserRole", USER_ROLES],
  ["TrainingStatus", TRAINING_STATUSES],
  ["CustomRequestStatus", CUSTOM_REQUEST_STATUSES],
  ["CreatorMembershipStatus", CREATOR_MEMBERSHIP_STATUSES],
  ["LibraryVisibility", LIBRARY_VISIBILITIES],
  ["DataExportStatus", DATA_EXPORT_STATUSES],
  ["AccountDeletionStatus", ACCOUNT_DELETION_STATUSES],
];

describe("contract lists equal Prisma's enums", () => {
  it.each(pairs)("%s", (name, list) => {
    expect([...list]).toEqual(Object.values(prismaEnums[name]));
  });
});
