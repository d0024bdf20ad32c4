import path from "node:path";
import type { Db } from "../../db/client.ts";
import type { MediaStorage } from "../../storage/media-storage.ts";
import type { ArchiveFile } from "./privacy.archive.ts";

/** Rows read per query: a page at a time is all an export ever holds of a table. */
const PAGE = 200;

/** Pages of rows after `afterId`, in id order, until none are left (keyset paging: no OFFSET to rescan). */
async function* pages<T extends { id: number }>(read: (afterId: number, take: number) => Promise<T[]>): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const rows = await read(after, PAGE);
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1].id;
    if (rows.length < PAGE) return;
  }
}

/** A JSON array written row by row; `shape` turns a row into what the person reads. */
async function* jsonArray<T extends { id: number }>(rows: AsyncIterable<T[]>, shape: (row: T) => unknown = (r) => r): AsyncGenerator<string> {
  let first = true;
  yield "[";
  for await (const page of rows) {
    for (const row of page) {
      yield `${first ? "\n" : ",\n"}${JSON.stringify(shape(row), jsonValue)}`;
      first = false;
    }
  }
  yield "\n]\n";
}

/** BigInts (sizes) as numbers; everything else as JSON has it. */
const jsonValue = (_key: string, value: unknown) => (typeof value === "bigint" ? Number(value) : value);

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** Who the person is, as profile.json shows it (no login secrets, no attribution). */
const PERSON = { id: true, uuid: true, nickname: true, email: true, loginType: true, role: true, title: true, photo: true, language: true } as const;

const byId = (afterId: number) => ({ where: { id: { gt: afterId } }, orderBy: { id: "asc" as const } });

/** The file a stored key is written as in the archive: its folder, the row's id and the key's own extension. */
const entryName = (folder: string, id: number | string, key: string) => `${folder}/${id}${path.extname(key) || ".bin"}`;

/**
 * What the archive holds (GDPR Art. 15, 20; decision 261): the profile, orders, ledger, creations and uploads with
 * their files, characters, chats (one file per conversation) and character models. Every table is read in pages and
 * every file streamed from storage, so an account of any size is exported in the same memory. Reads only: each table
 * is still written by its own domain alone.
 */
export function createExportWriter(db: Db, storage: Pick<MediaStorage, "stream" | "exists">) {
  /** Streams a stored file into the archive; one that is gone (expired, taken down) is listed as missing instead. */
  async function addFile(zip: ArchiveFile, name: string, key: string, missing: string[]): Promise<void> {
    if (!(await storage.exists(key))) return void missing.push(name);
    await zip.add(name, await storage.stream(key), false);
  }

  async function profile(zip: ArchiveFile, userId: number): Promise<void> {
    const [user, wallet, plans, page, following, memberOf] = await Promise.all([
      db.user.findUniqueOrThrow({ where: { id: userId }, select: { ...PERSON, points: true, allPoints: true, createdAt: true } }),
      db.wallet.findUnique({ where: { userId }, select: { address: true, chain: true, linkedAt: true } }),
      db.membership.findMany({ where: { userId }, select: { id: true, provider: true, status: true, currentPeriodEnd: true, createdAt: true } }),
      db.creatorPage.findUnique({ where: { userId }, select: { homeLink: true, title: true, bio: true, socialLinks: true, createdAt: true } }),
      db.subscription.findMany({ where: { userId }, select: { creatorPage: { select: { homeLink: true } }, active: true, createdAt: true } }),
      db.creatorMembership.findMany({ where: { fanUserId: userId }, select: { creatorPage: { select: { homeLink: true } }, status: true, paidThrough: true } }),
    ]);
    const doc = { user, wallet, plans, creator_page: page, following, creator_memberships: memberOf };
    await zip.add("profile.json", once(`${JSON.stringify(doc, jsonValue, 2)}\n`), true);
  }

  async function money(zip: ArchiveFile, userId: number): Promise<void> {
    const orders = pages((after, take) =>
      db.order.findMany({ ...byId(after), where: { userId, id: { gt: after } }, take, include: { product: { select: { name: true } } } }),
    );
    await zip.add(
      "orders.json",
      jsonArray(orders, ({ payUrl: _link, ...o }) => o),
      true,
    );
    const ledger = pages((after, take) => db.ledgerEntry.findMany({ ...byId(after), where: { userId, id: { gt: after } }, take }));
    await zip.add(
      "ledger.json",
      jsonArray(ledger, ({ staffId: _staff, ...e }) => e),
      true,
    );
  }

  async function creations(zip: ArchiveFile, userId: number, missing: string[]): Promise<void> {
    const read = (after: number, take: number) => db.generationTask.findMany({ ...byId(after), where: { userId, id: { gt: after } }, take });
    const shape = (t: Awaited<ReturnType<typeof read>>[number]) => ({
      id: t.id,
      mode: t.mode,
      status: t.status,
      prompt: (t.input as { prompt?: string }).prompt ?? null,
      created_at: t.createdAt,
      file: t.outputKey ? entryName("creations", t.id, t.outputKey) : null,
    });
    await zip.add("creations.json", jsonArray(pages(read), shape), true);
    for await (const page of pages(read))
      for (const t of page) if (t.outputKey) await addFile(zip, entryName("creations", t.id, t.outputKey), t.outputKey, missing);
  }

  async function uploads(zip: ArchiveFile, userId: number, missing: string[]): Promise<void> {
    const read = (after: number, take: number) =>
      db.upload.findMany({
        ...byId(after),
        where: { userId, id: { gt: after } },
        take,
        select: { id: true, kind: true, mime: true, storageKey: true, createdAt: true },
      });
    await zip.add(
      "uploads.json",
      jsonArray(pages(read), ({ storageKey, ...u }) => ({ ...u, file: entryName("uploads", u.id, storageKey) })),
      true,
    );
    for await (const page of pages(read)) for (const u of page) await addFile(zip, entryName("uploads", u.id, u.storageKey), u.storageKey, missing);
  }

  async function chats(zip: ArchiveFile, userId: number): Promise<void> {
    const characters = pages((after, take) =>
      db.character.findMany({ ...byId(after), where: { userId, id: { gt: after } }, take, omit: { avatarKey: true, conversationCount: true } }),
    );
    await zip.add("characters.json", jsonArray(characters), true);
    const conversations = pages((after, take) =>
      db.conversation.findMany({
        ...byId(after),
        where: { userId, id: { gt: after } },
        take,
        select: { id: true, createdAt: true, character: { select: { name: true } } },
      }),
    );
    for await (const page of conversations)
      for (const c of page) {
        const messages = pages((after, take) =>
          db.chatMessage.findMany({
            ...byId(after),
            where: { conversationId: c.id, id: { gt: after } },
            take,
            select: { id: true, role: true, content: true, createdAt: true },
          }),
        );
        const head = once(`{"conversation":${c.id},"character":${JSON.stringify(c.character.name)},"started_at":"${c.createdAt.toISOString()}","messages":`);
        await zip.add(`chats/${c.id}.json`, concat(head, jsonArray(messages), once("}\n")), true);
      }
  }

  async function models(zip: ArchiveFile, userId: number): Promise<void> {
    const rows = pages((after, take) =>
      db.characterModel.findMany({
        ...byId(after),
        where: { userId, id: { gt: after } },
        take,
        select: {
          id: true,
          name: true,
          homeLink: true,
          status: true,
          createdAt: true,
          gpuCopies: { select: { server: true, firstAt: true, lastAt: true, evictedAt: true }, orderBy: { id: "asc" } },
        },
      }),
    );
    // where its weights went (decision 330): each GPU server that fetched a copy, and when it confirmed deleting it
    const shape = ({ gpuCopies, ...m }: { id: number; gpuCopies: { server: string; firstAt: Date; lastAt: Date; evictedAt: Date | null }[] }) => ({
      ...m,
      gpu_servers: gpuCopies.map((c) => ({ server: c.server, first_fetched_at: c.firstAt, last_fetched_at: c.lastAt, deleted_at: c.evictedAt })),
    });
    await zip.add("models.json", jsonArray(rows, shape), true);
  }

  /** Writes every part of the account's data into `zip`; answers the files it could not find. */
  return async function writeExport(zip: ArchiveFile, userId: number): Promise<string[]> {
    const missing: string[] = [];
    await profile(zip, userId);
    await money(zip, userId);
    await creations(zip, userId, missing);
    await uploads(zip, userId, missing);
    await chats(zip, userId);
    await models(zip, userId);
    const readme = [
      "Everything Reverie holds about your account, as of the date of this archive.",
      "profile.json: your account, balance, wallet, plans and creator page. orders.json, ledger.json: purchases and every credit movement.",
      "creations.json with creations/, uploads.json with uploads/: what you made and uploaded, with the files.",
      "characters.json, chats/: your characters and conversations. models.json: your character models, and the GPU servers that held a copy of each (deleted_at: when the server confirmed it deleted it).",
      missing.length ? `Files no longer stored (expired or removed): ${missing.join(", ")}` : "",
    ];
    await zip.add("README.txt", once(`${readme.filter(Boolean).join("\n")}\n`), true);
    return missing;
  };
}

async function* concat(...parts: AsyncIterable<string>[]): AsyncGenerator<string> {
  for (const part of parts) yield* part;
}
