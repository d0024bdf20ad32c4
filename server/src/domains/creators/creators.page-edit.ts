import { isUniqueViolation, type Db, type Tx } from "../../db/client.ts";
import { CREATOR_MESSAGES as M } from "../../contract/creators.ts";
import { HOME_LINK_MESSAGES } from "../../contract/home-link.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreatePage, PageEdit, PageFields } from "./creators.schema.ts";

/** training owns character models: a page published from one takes its home link and name, and shows its cover */
export interface CharacterModels {
  publishable(userId: number, modelId: number): Promise<{ id: number; homeLink: string; name: string } | null>;
  coverFor(modelId: number): Promise<{ url: string; shareUrl: string } | null>;
}

/** uploads owns images: a page's own cover is one of the creator's image uploads */
export interface PageCovers {
  /** the caller's own usable image upload; anything else is refused (404, or 403 while screening holds it) */
  own(userId: number, uploadId: number): Promise<unknown>;
  pictureOf(uploadId: number): Promise<{ url: string; shareUrl: string } | null>;
}

interface EditDeps<Page> {
  db: Db;
  models: CharacterModels;
  covers: PageCovers;
  /** users owns roles: the first page makes the account a creator (SPEC.md §6) */
  makeCreator(tx: Tx, userId: number): Promise<void>;
  /** the caller's page as they see it, answered after every change */
  mine(userId: number): Promise<Page>;
}

/** The columns the fields every page form shares set; a field left out keeps its value. */
function fieldData(fields: PageFields) {
  return {
    ...(fields.bio === undefined ? {} : { bio: fields.bio }),
    ...(fields.social_links === undefined ? {} : { socialLinks: fields.social_links }),
    ...(fields.request_price === undefined ? {} : { requestPrice: fields.request_price }),
    ...(fields.membership_price === undefined ? {} : { membershipPrice: fields.membership_price }),
  };
}

/**
 * Making and editing the creator's own page (decisions 203 and 253): published from a finished model, or made directly
 * with a home link of its own and a model attached (or detached) later. One page per account; the first makes the
 * account a creator in the same transaction.
 */
export function createPageEdits<Page>({ db, models, covers, makeCreator, mine }: EditDeps<Page>) {
  /** A model named for the page: one of the caller's finished, usable ones, or 400; null (detach) passes. */
  async function checkedModel(userId: number, modelId: number | null | undefined) {
    if (!modelId) return modelId;
    const model = await models.publishable(userId, modelId);
    if (!model) throw HttpError.badRequest(M.modelNotReady);
    return model.id;
  }

  /** A cover named for the page: the caller's own image upload that screening lets through, or refused; null passes. */
  async function checkedCover(userId: number, uploadId: number | null | undefined) {
    if (uploadId) await covers.own(userId, uploadId);
    return uploadId;
  }

  /**
   * Writes the new page and makes its owner a creator. The unique indexes decide races: a second page of the account
   * is 'You already have a page'; a home link another page has (in any case) is 'already taken'.
   */
  async function insert(
    userId: number,
    data: { homeLink: string; title: string; characterModelId?: number | null; coverUploadId?: number | null },
    fields: PageFields,
  ) {
    try {
      await db.$transaction(async (tx: Tx) => {
        if (await tx.creatorPage.findUnique({ where: { userId }, select: { id: true } })) throw HttpError.conflict(M.hasPage);
        await tx.creatorPage.create({ data: { userId, ...data, ...fieldData(fields) } });
        await makeCreator(tx, userId);
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const own = await db.creatorPage.count({ where: { userId } });
      throw HttpError.conflict(own ? M.hasPage : HOME_LINK_MESSAGES.taken);
    }
    return mine(userId);
  }

  return {
    /** The caller's page for one of their finished character models: the model's home link and name become the page's. */
    async publish(userId: number, modelId: number, fields: PageFields) {
      const model = await models.publishable(userId, modelId);
      if (!model) throw HttpError.badRequest(M.modelNotReady);
      return insert(userId, { homeLink: model.homeLink, title: model.name, characterModelId: model.id }, fields);
    },

    /** A page made directly (issue 30): its own home link, name and cover; a model is optional. Guests are refused by CASL. */
    async create(userId: number, body: CreatePage) {
      const [characterModelId, coverUploadId] = await Promise.all([checkedModel(userId, body.role_id), checkedCover(userId, body.cover_id)]);
      return insert(userId, { homeLink: body.home_link, title: body.title, characterModelId, coverUploadId }, body);
    },

    /** The edit screen: name, cover, the model shown (one of the caller's finished ones, or none), bio, links, prices. */
    async update(userId: number, fields: PageEdit) {
      const [characterModelId, coverUploadId] = await Promise.all([checkedModel(userId, fields.role_id), checkedCover(userId, fields.cover_id)]);
      const changed = await db.creatorPage.updateMany({
        where: { userId },
        data: {
          ...fieldData(fields),
          ...(fields.title === undefined ? {} : { title: fields.title }),
          ...(characterModelId === undefined ? {} : { characterModelId }),
          ...(coverUploadId === undefined ? {} : { coverUploadId }),
        },
      });
      if (!changed.count) throw HttpError.notFound(M.noPage);
      return mine(userId);
    },

    /** The model's owner withdrew consent or deleted it (training's revoke): the page stays, without the model. */
    async detachModel(modelId: number): Promise<void> {
      await db.creatorPage.updateMany({ where: { characterModelId: modelId }, data: { characterModelId: null } });
    },
  };
}
