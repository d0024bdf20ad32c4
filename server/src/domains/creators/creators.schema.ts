import { z } from "zod";
import { idsFilter, intFilter } from "../../http/list-filters.ts";
import { pageOf, pageQuery } from "../uploads/uploads.schema.ts";
import { homeLinkField } from "../training/training.schema.ts";
import {
  CREATOR_BIO_MAX,
  CREATOR_TITLE_MAX,
  CREATOR_MEMBERSHIP_STATUSES,
  CREATOR_MESSAGES as M,
  CUSTOM_REQUEST_STATUSES,
  CUSTOM_REQUEST_TEXT_MAX,
  LIBRARY_VISIBILITIES,
  MEMBERSHIP_PRICE_MAX,
  REQUEST_PRICE_MAX,
  SOCIAL_LINKS_MAX,
  socialNetworkOf,
} from "../../contract/creators.ts";
import { DISPUTE_STATUSES } from "../../contract/creator-payouts.ts";
import { CONTENT_STATES } from "../../contract/moderation.ts";
import { SIDES } from "../../contract/sides.ts";

const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);

/** An empty link is its own answer (SPEC.md §8 'No domain information'); anything else is looked up as given. */
export const homeLinkInfoQuery = z.object({ home_link: z.preprocess(trimmed, z.string().max(100).optional().default("")) });

/** Bodies are JSON: their numbers are JSON numbers, never text made numbers (issue 47). */
export const bindingBody = z.object({
  home_link: z.preprocess(trimmed, z.string({ error: M.noDomainInformation }).min(1, M.noDomainInformation).max(100)),
  /** 1 subscribe, 0 unsubscribe; both idempotent */
  subscribe: z.number().int().min(0).max(1),
});

const socialLinks = z
  .array(
    z
      .string()
      .trim()
      .max(300)
      .refine((u) => socialNetworkOf(u) !== null, M.socialLink),
    { error: M.socialLink },
  )
  .max(SOCIAL_LINKS_MAX, `At most ${SOCIAL_LINKS_MAX} social links`);

const membershipPrice = `A membership costs 1 to ${MEMBERSHIP_PRICE_MAX} credits a month`;

export const pageFields = z.object({
  bio: z.preprocess(trimmed, z.string().max(CREATOR_BIO_MAX, `The bio can be at most ${CREATOR_BIO_MAX} characters`)).optional(),
  social_links: socialLinks.optional(),
  /** credits per custom request; null stops taking requests */
  request_price: z.number().int().min(1).max(REQUEST_PRICE_MAX).nullable().optional(),
  /** credits per membership period; null offers no membership (running ones end at their period's end) */
  membership_price: z
    .number({ error: membershipPrice })
    .int(membershipPrice)
    .min(1, membershipPrice)
    .max(MEMBERSHIP_PRICE_MAX, membershipPrice)
    .nullable()
    .optional(),
});

/** Publishing a page for one of the caller's finished character models: its home link becomes the page's. */
export const publishBody = pageFields.extend({ role_id: z.number().int().positive() });

export type PageFields = z.infer<typeof pageFields>;

const title = z.preprocess(trimmed, z.string({ error: M.titleRequired }).min(1, M.titleRequired).max(CREATOR_TITLE_MAX, M.titleLength));
/** An image upload of the caller's as the page's cover; null removes it (the model's cover shows, if any). */
const coverId = z.number().int().positive().nullable();
/** One of the caller's finished models shown with the page; null detaches it (the page stays). */
const modelId = z.number().int().positive().nullable();

/** What the page's edit screen changes besides the fields above: name, cover and the model shown with it. */
export const pageEdit = pageFields.extend({ title: title.optional(), cover_id: coverId.optional(), role_id: modelId.optional() });
export type PageEdit = z.infer<typeof pageEdit>;

/**
 * A page made directly, without training (issue 30): its own home link (SPEC.md §5's rules and words, the same check
 * as training's), a display name, and optionally a cover, a model and the fields of `pageFields`.
 */
export const createPageBody = pageEdit.extend({ home_link: homeLinkField, title });
export type CreatePage = z.infer<typeof createPageBody>;

export const requestBody = z.object({
  home_link: z.preprocess(trimmed, z.string().min(1, M.noDomainInformation).max(100)),
  text: z.preprocess(
    trimmed,
    z.string().min(1, "Please describe your request").max(CUSTOM_REQUEST_TEXT_MAX, `A request can be at most ${CUSTOM_REQUEST_TEXT_MAX} characters`),
  ),
  /** one per tap: a retried or double-clicked request is held once */
  idempotency_key: z.string().min(8).max(100),
});
export const requestIdBody = z.object({ id: z.number().int().positive() });
export const deliverBody = requestIdBody.extend({ task_id: z.number().int().positive() });
export const rateBody = requestIdBody.extend({ satisfied: z.number().int().min(0).max(1) });
export const requestsQuery = z.object({ as: z.enum(SIDES).default("fan") });

/** A fan joins or cancels a page's paid membership. */
export const membershipBody = z.object({ home_link: z.preprocess(trimmed, z.string().min(1, M.noDomainInformation).max(100)) });
/** The creator publishes a finished creation (task) of theirs, or changes its visibility. */
export const publishItemBody = z.object({ task_id: z.number().int().positive(), visibility: z.enum(LIBRARY_VISIBILITIES) });
export const itemIdBody = z.object({ id: z.number().int().positive() });
/** A members-only file: item, part and viewer as signed, with the signature's expiry. */
export const libraryMediaQuery = z.object({
  item: z.coerce.number().int().positive(),
  part: z.enum(["main", "poster"]),
  viewer: z.coerce.number().int().positive(),
  expires: z.coerce.number().int(),
  sig: z.string().min(1).max(100),
});

/** A page of a creator page's library (SPEC.md §9 page sizes). */
export const libraryQuery = pageQuery.extend({ home_link: z.preprocess(trimmed, z.string().min(1, M.noDomainInformation).max(100)) });
/** Which of these creations (task ids, comma separated, at most a page of 50) are on the caller's page, and how. */
export const myItemsQuery = z.object({
  task_ids: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() ? v.split(",") : []) : v),
    z.array(z.coerce.number().int().positive(), { error: "task_ids must be task ids separated by commas" }).max(50, "At most 50 task ids"),
  ),
});

// the console's read-only lists (decision 215)
export const creatorMembershipFilter = z.strictObject({
  id: idsFilter,
  creatorPageId: intFilter,
  fanUserId: intFilter,
  status: z.enum(CREATOR_MEMBERSHIP_STATUSES).optional(),
});
export type CreatorMembershipFilter = z.infer<typeof creatorMembershipFilter>;
export const creatorMembershipSortable = ["id", "createdAt", "paidThrough", "price", "status"] as const;
export const libraryItemFilter = z.strictObject({ id: idsFilter, creatorPageId: intFilter, visibility: z.enum(LIBRARY_VISIBILITIES).optional() });
export type LibraryItemFilter = z.infer<typeof libraryItemFilter>;
export const libraryItemSortable = ["id", "createdAt"] as const;

// What the routes answer (docs/decisions/229).

/** creator-memberships list  */
export const creatorMembershipRecord = z.object({
  homeLink: z.string(),
  renewsAt: z.date().nullable(),
  endsAt: z.date().nullable(),
  id: z.number(),
  createdAt: z.date(),
  status: z.enum(CREATOR_MEMBERSHIP_STATUSES),
  creatorPageId: z.number(),
  fanUserId: z.number(),
  price: z.number(),
  paidThrough: z.date(),
  period: z.number(),
  cancelledAt: z.date().nullable(),
  endedAt: z.date().nullable(),
});

/** creator-library-items list  */
export const creatorLibraryItemRecord = z.object({
  homeLink: z.string(),
  creationState: z.enum(CONTENT_STATES).nullable(),
  creationStatus: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  id: z.number(),
  createdAt: z.date(),
  creatorPageId: z.number(),
  visibility: z.enum(LIBRARY_VISIBILITIES),
  taskId: z.number(),
});

/** A library item as a viewer sees it: locked (no URLs) unless they are the creator or a member. */
export const libraryItemAnswer = z.object({
  locked: z.boolean(),
  image_url: z.string().nullable(),
  video_url: z.string().nullable(),
  poster_url: z.string().nullable(),
  id: z.number(),
  task_id: z.number(),
  visibility: z.enum(LIBRARY_VISIBILITIES),
  kind: z.string(),
  created_at: z.string(),
});

/** A fan's membership of a creator page (post /api/Subscribe/joinMembership, and on the page they see) */
export const joinMembershipAnswer = z.object({
  status: z.enum(CREATOR_MEMBERSHIP_STATUSES),
  price: z.number(),
  paid_through: z.string(),
  member: z.boolean(),
});

/** A creator page as a viewer sees it, with the first page of its library (get /api/Subscribe/getHomeLinkInfo). */
export const pageAnswer = z.object({
  id: z.number(),
  home_link: z.string(),
  title: z.string(),
  bio: z.string(),
  social_links: z.array(z.string()),
  cover_url: z.string().nullable(),
  subscriber_count: z.number(),
  subscribed: z.boolean(),
  is_owner: z.boolean(),
  /** the owner's picks for the edit screen (the model shown with the page, its own cover upload); null for anyone else */
  role_id: z.number().nullable(),
  cover_id: z.number().nullable(),
  library: z.array(libraryItemAnswer),
  library_total: z.number(),
  library_locked: z.number(),
  request_price: z.number().nullable(),
  membership_price: z.number().nullable(),
  membership: joinMembershipAnswer.nullable(),
  satisfaction_rate: z.number().nullable(),
});

/** The creator's own page: the public view and its moderation state. */
const ownPageAnswer = pageAnswer.extend({ state: z.enum(CONTENT_STATES) });

/** post /api/Subscribe/binding */
export const bindingAnswer = z.object({
  subscribed: z.boolean(),
  subscriber_count: z.number(),
});

/** get /api/Subscribe/myPage */
export const myPageAnswer = z.object({ page: ownPageAnswer.nullable() });

/** post /api/Subscribe/publishPage and updatePage: the page as saved, or null when it is not there */
export const publishPageAnswer = ownPageAnswer.nullable();

/** post /api/Subscribe/request */
export const requestAnswer = z.object({
  id: z.number(),
  text: z.string(),
  price: z.number(),
  status: z.enum(CUSTOM_REQUEST_STATUSES),
  delivered_task_id: z.number().nullable(),
  satisfied: z.boolean().nullable(),
  dispute_status: z.enum(DISPUTE_STATUSES).nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});

/** get /api/Subscribe/requests */
export const requestsAnswer = z.object({ list: z.array(requestAnswer.extend({ home_link: z.string(), creator: z.string() })) });

/** post /api/Subscribe/publishItem */
export const publishItemAnswer = z.object({
  id: z.number(),
  task_id: z.number(),
  visibility: z.enum(LIBRARY_VISIBILITIES),
});

/** get /api/Subscribe/library */
export const libraryAnswer = pageOf(libraryItemAnswer).extend({ locked: z.number() });

/** get /api/Subscribe/myItems */
export const myItemsAnswer = z.object({
  list: z.array(publishItemAnswer),
});

/** post /api/Subscribe/unpublishItem */
export const unpublishItemAnswer = z.object({
  id: z.number(),
});
