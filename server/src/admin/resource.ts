import { z } from "zod";
import type { Action, Subject } from "../authz/abilities.ts";
import type { StaffPrincipal } from "../authz/principal.ts";
import type { ListParams, Page } from "../db/paging.ts";
import type { ApiRouter } from "../http/api.ts";
import { HttpError } from "../http/errors.ts";
import { receiveFile } from "../http/multipart.ts";
import type { IncomingFile } from "../domains/uploads/uploads.service.ts";

/** The query string of a ra-data-simple-rest list call; each value is JSON. */
const listQuery = z.object({
  sort: z.string().max(200).optional(),
  range: z.string().max(100).optional(),
  filter: z.string().max(10_000).optional(),
});

const MAX_PAGE = 1000;

const sortParam = z.tuple([z.string().min(1).max(64), z.enum(["ASC", "DESC", "asc", "desc"])], { error: 'sort must be ["field","ASC"|"DESC"]' });
const rangeParam = z
  .tuple([z.number().int().min(0), z.number().int().min(0)], { error: "range must be [from,to]" })
  .refine(([from, to]) => to >= from && to - from < MAX_PAGE, { error: `range must be [from,to] with at most ${MAX_PAGE} rows` });

function json(raw: string | undefined, name: string): unknown {
  if (raw === undefined || raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw HttpError.badRequest(`${name} is not valid JSON`);
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue?.path.length ? `${what}.${issue.path.join(".")}` : what;
  throw HttpError.badRequest(issue?.code === "unrecognized_keys" ? `Unknown ${what}: ${issue.keys.join(", ")}` : `${where}: ${issue?.message ?? "invalid"}`);
}

export interface ListSpec<F, S extends z.ZodType> {
  filter: z.ZodType<F>;
  sortable: readonly string[];
  defaultSort?: [string, "asc" | "desc"];
  /** one row of the list */
  row: S;
}

/** What a handler may answer for a record schema: the record, or nothing for a 404. */
type Found<S extends z.ZodType> = Promise<z.input<S> | null | undefined>;

/**
 * One console resource at `/admin/api/<name>`, speaking ra-data-simple-rest: a list answers a plain JSON array
 * with `Content-Range: <name> <from>-<to>/<total>`, the other calls a plain JSON record (react-admin reads
 * neither the `{code,msg,data}` envelope nor anything else; see docs/decisions/030). Every route goes through
 * the ApiRouter, so staff login and the CASL check run before any handler. Every call names the schema of what
 * it answers, which types its handler and documents it (docs/decisions/229).
 */
export class AdminResource<Id extends number | string = number> {
  readonly base: string;
  private readonly params: z.ZodType<{ id: Id }>;
  private readonly tags: string[];

  constructor(
    private readonly api: ApiRouter,
    readonly name: string,
    readonly subject: Subject,
    idSchema: z.ZodType<Id> = z.coerce.number({ error: "id must be a number" }).int().positive() as unknown as z.ZodType<Id>,
  ) {
    this.base = `/admin/api/${name}`;
    this.params = z.object({ id: idSchema }) as unknown as z.ZodType<{ id: Id }>;
    this.tags = [`console: ${name}`];
  }

  /** `run`'s rows may be typed nullable where a service maps rows with its one-record mapper (`null` for a missing one); a listed row is never null. */
  list<F, S extends z.ZodType>(spec: ListSpec<F, S>, run: (params: ListParams<F>, staff: StaffPrincipal) => Promise<Page<z.input<S> | null>>) {
    const response = plain(z.array(spec.row), `The rows; \`Content-Range: ${this.name} <from>-<to>/<total>\``);
    this.api.get(
      this.base,
      { summary: `List ${this.name} (sort, range, filter as JSON)`, tags: this.tags, auth: "staff", can: ["read", this.subject], query: listQuery, response },
      async ({ query, principal, res }) => {
        const [field, order] = parse(sortParam.optional(), json(query.sort, "sort"), "sort") ?? spec.defaultSort ?? ["id", "desc"];
        if (!spec.sortable.includes(field)) throw HttpError.badRequest(`Cannot sort ${this.name} by ${field}`);
        const range = parse(rangeParam.optional(), json(query.range, "range"), "range") ?? [0, MAX_PAGE - 1];
        const filter = parse(spec.filter, json(query.filter, "filter") ?? {}, "filter");
        const page = await run({ sort: { field, order: order.toLowerCase() as "asc" | "desc" }, range: range as [number, number], filter }, principal);
        const to = page.from + page.rows.length - 1;
        res.setHeader("Content-Range", page.rows.length ? `${this.name} ${page.from}-${to}/${page.total}` : `${this.name} */${page.total}`);
        res.setHeader("Access-Control-Expose-Headers", "Content-Range");
        return page.rows as z.input<S>[];
      },
    );
  }

  get<S extends z.ZodType>(record: S, run: (id: Id, staff: StaffPrincipal) => Found<S>) {
    this.api.get(
      `${this.base}/:id`,
      { summary: `One of ${this.name}`, tags: this.tags, auth: "staff", can: ["read", this.subject], params: this.params, response: plain(record) },
      async ({ params, principal }) => found(await run(params.id, principal)),
    );
  }

  create<B, S extends z.ZodType>(body: z.ZodType<B>, record: S, run: (body: B, staff: StaffPrincipal) => Found<S>) {
    this.api.post(
      this.base,
      { summary: `Create one of ${this.name}`, tags: this.tags, auth: "staff", can: ["create", this.subject], body, response: plain(record) },
      async (ctx) => found(await run(ctx.body as B, ctx.principal)),
    );
  }

  update<B, S extends z.ZodType>(body: z.ZodType<B>, record: S, run: (id: Id, body: B, staff: StaffPrincipal) => Found<S>) {
    this.api.put(
      `${this.base}/:id`,
      {
        summary: `Change one of ${this.name}`,
        tags: this.tags,
        auth: "staff",
        can: ["update", this.subject],
        params: this.params,
        body,
        response: plain(record),
      },
      async (ctx) => found(await run(ctx.params.id, ctx.body as B, ctx.principal)),
    );
  }

  remove<S extends z.ZodType>(record: S, run: (id: Id, staff: StaffPrincipal) => Found<S>) {
    this.api.delete(
      `${this.base}/:id`,
      { summary: `Delete one of ${this.name}`, tags: this.tags, auth: "staff", can: ["delete", this.subject], params: this.params, response: plain(record) },
      async ({ params, principal }) => found(await run(params.id, principal)),
    );
  }

  /** `GET /admin/api/<name>/:id/<view>`: something computed about one record, under the permission of the action it prepares. */
  view<S extends z.ZodType>(view: string, spec: { summary: string; can: [Action, Subject]; response: S }, run: (id: Id, staff: StaffPrincipal) => Found<S>) {
    this.api.get(
      `${this.base}/:id/${view}`,
      { summary: spec.summary, tags: this.tags, auth: "staff", can: spec.can, params: this.params, response: plain(spec.response) },
      async ({ params, principal }) => found(await run(params.id, principal)),
    );
  }

  /** `POST /admin/api/<name>/:id/<action>`: a named staff action on one record, checked against its own permission. */
  action<B, S extends z.ZodType>(
    action: string,
    spec: { summary: string; can: [Action, Subject]; body: z.ZodType<B>; response: S },
    run: (id: Id, body: B, staff: StaffPrincipal) => Found<S>,
  ) {
    this.api.post(
      `${this.base}/:id/${action}`,
      { summary: spec.summary, tags: this.tags, auth: "staff", can: spec.can, params: this.params, body: spec.body, response: plain(spec.response) },
      async (ctx) => found(await run(ctx.params.id, ctx.body as B, ctx.principal)),
    );
  }

  /** `POST /admin/api/<name>/:id/<action>` with a multipart `file` (at most `maxBytes`, else the `tooBig` message). */
  upload<S extends z.ZodType>(
    action: string,
    spec: { summary: string; can: [Action, Subject]; maxBytes: number; tooBig: string; response: S },
    run: (id: Id, file: IncomingFile | undefined, staff: StaffPrincipal) => Found<S>,
  ) {
    this.api.post(
      `${this.base}/:id/${action}`,
      {
        summary: spec.summary,
        tags: this.tags,
        auth: "staff",
        can: spec.can,
        params: this.params,
        before: [receiveFile(spec.maxBytes, spec.tooBig)],
        response: plain(spec.response),
      },
      async (ctx) => found(await run(ctx.params.id, ctx.req.file, ctx.principal)),
    );
  }
}

/** Plain JSON, as react-admin reads it (docs/decisions/030). */
function plain<S extends z.ZodType>(schema: S, description = "The record") {
  return { kind: "plain", schema, description } as const;
}

/** A missing record is the usual 404. */
function found<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw HttpError.notFound();
  return value;
}

/** A reason staff must give for actions that touch a person's account or content. */
export const reasonBody = z.object({
  reason: z.string({ error: "Please give a reason" }).trim().min(3, { error: "Please give a reason" }).max(500),
});
