import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import { OpenAPIRegistry, OpenApiGeneratorV3, extendZodWithOpenApi, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { abilityFor, type Action, type AppAbility, type Subject } from "../authz/abilities.ts";
import { anonymous, type Principal, type StaffPrincipal, type UserPrincipal } from "../authz/principal.ts";
import { sendOk } from "./envelope.ts";
import { HttpError } from "./errors.ts";
import { coercedFields } from "./coercion.ts";
import { validated } from "./validation.ts";
import { MSG } from "./messages.ts";
import { MULTIPART } from "./multipart.ts";

extendZodWithOpenApi(z);

export type AuthMode = "public" | "user" | "staff";

type AnyObject = z.ZodType<Record<string, unknown>>;

/**
 * An answer other than the `{code,msg,data}` envelope: plain JSON (the console's react-admin resources,
 * docs/decisions/030), or Server-Sent Events, a redirect, a file or page, which the handler writes to `res` itself. It
 * is named so that the OpenAPI document, and the browser apps' types generated from it, say what the route answers.
 */
export type OtherAnswer =
  /** JSON without the envelope: the handler returns it like `data`, or `undefined` when it wrote another answer itself */
  | { kind: "plain"; schema: z.ZodType; description: string }
  /** `text/event-stream`; `schema` is the JSON of each event's `data:` line */
  | { kind: "events"; schema: z.ZodType; description: string }
  | { kind: "redirect"; status: 302 | 303; description: string }
  /** a body of `contentType` (a file, a CSV export, an HTML page) */
  | { kind: "file"; contentType: string; description: string };

/** A route's answer: a zod schema is the envelope's `data`; anything else is an {@link OtherAnswer}. */
export type Answer = z.ZodType | OtherAnswer;

/**
 * What a handler may return for its answer, checked by `tsc` (docs/decisions/229): for the envelope or plain JSON, its
 * schema's input (what the schema accepts: a `Date` is written as its JSON string); for any other answer nothing, as
 * the handler wrote it to `res`. Answers are not validated at run time: that would cost every request.
 */
type Returned<R extends Answer> = R extends z.ZodType
  ? z.input<R>
  : R extends { kind: "plain"; schema: infer S extends z.ZodType }
    ? z.input<S> | undefined
    : void | undefined;

export interface RouteSpec<B extends z.ZodType, Q extends AnyObject, P extends AnyObject, R extends Answer = Answer> {
  summary: string;
  tags?: string[];
  /** public: anyone (a token is still read when present); user / staff: that kind of login is required. */
  auth: AuthMode;
  /** The CASL check made before the handler runs; instance checks happen in services. */
  can?: [Action, Subject];
  body?: B;
  query?: Q;
  params?: P;
  /** What the route answers (see {@link Answer}); the handler's return type is checked against it. */
  response: R;
  /** Extra middleware run after authentication and before validation (rate limits, uploads). */
  before?: RequestHandler[];
}

export interface RouteContext<B, Q, P, Who extends Principal = Principal> {
  body: B;
  query: Q;
  params: P;
  principal: Who;
  ability: AppAbility;
  req: Request;
  res: Response;
}

type Who<M extends AuthMode> = M extends "user" ? UserPrincipal : M extends "staff" ? StaffPrincipal : Principal;

/** What a handler returns is the `data` of the envelope; a route with an {@link OtherAnswer} writes to `res` itself and returns nothing. */
type Handler<B, Q, P, M extends AuthMode, R extends Answer> = (ctx: RouteContext<B, Q, P, Who<M>>) => Promise<Returned<R>> | Returned<R>;

export type ResolvePrincipal = (req: Request) => Promise<Principal>;

declare module "express-serve-static-core" {
  interface Request {
    principal?: Principal;
    ability?: AppAbility;
    requestId?: string;
    /** The pattern of the API route that took the request (`/admin/api/users/:id`): its label in the metrics. */
    routePattern?: string;
  }
}

/**
 * Builds every API route as one chain: authenticate -> require login -> CASL permission -> validate -> handler,
 * and records the route in the OpenAPI registry from the same zod schemas.
 */
export class ApiRouter {
  readonly registry = new OpenAPIRegistry();
  /**
   * Every route, one router per API area (`/api/Subscribe`, `/admin/api/users`...), so Express tests a request against
   * the app's few layers, then the areas, then the handful of routes of one area, instead of every route in turn
   * (docs/decisions/231). Mounted by the app once, after its common middleware; routes added later are served too.
   */
  readonly routes: Router = express.Router({ caseSensitive: false });
  private readonly areas = new Map<string, Router>();
  private readonly declared = new Set<string>();

  constructor(private readonly resolvePrincipal: ResolvePrincipal) {}

  get<R extends Answer, Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<z.ZodUndefined, Q, P, R> & { auth: M },
    handler: Handler<undefined, z.infer<Q>, z.infer<P>, M, R>,
  ) {
    this.add("get", path, spec, handler);
  }

  post<
    R extends Answer,
    B extends z.ZodType = z.ZodUndefined,
    Q extends AnyObject = z.ZodObject,
    P extends AnyObject = z.ZodObject,
    M extends AuthMode = AuthMode,
  >(path: string, spec: RouteSpec<B, Q, P, R> & { auth: M }, handler: Handler<z.infer<B>, z.infer<Q>, z.infer<P>, M, R>) {
    this.add("post", path, spec, handler);
  }

  put<
    R extends Answer,
    B extends z.ZodType = z.ZodUndefined,
    Q extends AnyObject = z.ZodObject,
    P extends AnyObject = z.ZodObject,
    M extends AuthMode = AuthMode,
  >(path: string, spec: RouteSpec<B, Q, P, R> & { auth: M }, handler: Handler<z.infer<B>, z.infer<Q>, z.infer<P>, M, R>) {
    this.add("put", path, spec, handler);
  }

  delete<R extends Answer, Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<z.ZodUndefined, Q, P, R> & { auth: M },
    handler: Handler<undefined, z.infer<Q>, z.infer<P>, M, R>,
  ) {
    this.add("delete", path, spec, handler);
  }

  private add(
    method: "get" | "post" | "put" | "delete",
    path: string,
    spec: RouteSpec<z.ZodType, AnyObject, AnyObject>,
    handler: Handler<any, any, any, any, Answer>,
  ) {
    // a JSON body's number is a JSON number: `"10"`, `[10]` or `"1e3"` taken as one was how tips were charged from any
    // type (issue 47). Only a multipart form, all text, may make numbers of its fields.
    const coerced = spec.body && !spec.before?.some((h) => MULTIPART in h) ? coercedFields(spec.body) : [];
    if (coerced.length) throw new Error(`${method.toUpperCase()} ${path}: a JSON body may not coerce ${coerced.join(", ")}`);
    this.document(method, path, spec);
    const admit = this.admission(spec, path);
    const plain = !(spec.response instanceof z.ZodType) && spec.response.kind === "plain";
    const respond = async (req: Request, res: Response) => {
      const valid = validated(spec, req);
      const data = await handler({ ...valid, principal: req.principal!, ability: req.ability!, req, res });
      if (res.headersSent || data === undefined) return;
      if (plain) res.status(200).json(data);
      else sendOk(res, data);
    };
    // The steps run in one function unless extra middleware must sit between them: every Express layer costs a
    // measurable share of a cheap request (docs/decisions/007).
    const chain: RequestHandler[] = spec.before?.length
      ? [
          async (req, _res, next) => {
            await admit(req);
            next();
          },
          ...spec.before,
          respond,
        ]
      : [
          async (req, res) => {
            await admit(req);
            await respond(req, res);
          },
        ];
    const key = `${method.toUpperCase()} ${path.toLowerCase()}`;
    if (this.declared.has(key)) throw new Error(`route ${key} is declared twice`);
    this.declared.add(key);
    const { area, rest } = areaOf(path);
    this.area(area)[method](rest, ...chain);
  }

  /** The router of an area, made and mounted the first time a route of that area is declared. */
  private area(area: string): Router {
    let router = this.areas.get(area.toLowerCase());
    if (!router) {
      router = express.Router({ caseSensitive: false });
      this.areas.set(area.toLowerCase(), router);
      this.routes.use(area, router);
    }
    return router;
  }

  /** Records the route's pattern, authenticates, requires its kind of login, refuses banned accounts, then its CASL check. */
  private admission(spec: RouteSpec<z.ZodType, AnyObject, AnyObject>, path: string): (req: Request) => Promise<void> {
    const mode = spec.auth;
    return async (req) => {
      req.routePattern = path; // its label in the metrics (server/src/metrics), never the URL
      const principal = req.principal ?? (await this.principalFor(req, mode));
      if (mode === "user" && principal.kind !== "user") throw HttpError.unauthorized();
      if (mode === "staff" && principal.kind !== "staff") throw HttpError.unauthorized();
      if (principal.kind === "user" && principal.banned) throw HttpError.forbidden(MSG.noLoginPermission);
      req.principal = principal;
      req.ability = abilityFor(principal);
      // a rule that gives its reason (`.because`) tells the person why, in place of the generic refusal
      if (spec.can && !req.ability.can(spec.can[0], spec.can[1])) throw HttpError.forbidden(req.ability.relevantRuleFor(spec.can[0], spec.can[1])?.reason);
    };
  }

  /**
   * A stale token on a public route (health, login, logout) is no reason to refuse it: the caller is
   * treated as anonymous there, and only routes that need a login answer 401.
   */
  private async principalFor(req: Request, mode: AuthMode): Promise<Principal> {
    try {
      return await this.resolvePrincipal(req);
    } catch (err) {
      if (mode === "public" && err instanceof HttpError && err.status === 401) return anonymous;
      throw err;
    }
  }

  private document(method: string, path: string, spec: RouteSpec<z.ZodType, AnyObject, AnyObject>) {
    this.registry.registerPath({
      method: method as "get",
      path: path.replace(/:(\w+)/g, "{$1}"),
      summary: spec.summary,
      tags: spec.tags,
      security: spec.auth === "public" ? [] : [{ token: [] }],
      request: {
        ...(spec.body ? { body: { content: { "application/json": { schema: spec.body } } } } : {}),
        ...(spec.query ? { query: spec.query as z.ZodObject } : {}),
        ...(spec.params ? { params: spec.params as z.ZodObject } : {}),
      },
      responses: {
        ...documented(spec.response),
        400: { description: "bad input: `msg` says what is wrong" },
        401: { description: MSG.loggedOut },
        403: { description: MSG.forbidden },
        429: { description: MSG.tooManyRequests },
      },
    });
  }

  openApiDocument() {
    this.registry.registerComponent("securitySchemes", "token", { type: "apiKey", in: "header", name: "token" });
    return new OpenApiGeneratorV3(this.registry.definitions).generateDocument({
      openapi: "3.0.3",
      info: { title: "Reverie API", version: "1.0.0", description: "Every response is `{ code, msg, data }` with the HTTP status equal to `code`." },
    });
  }
}

/** The OpenAPI response of a route's answer: the envelope around its schema, or the other answer it writes. */
function documented(answer: Answer): Record<number, ResponseConfig> {
  if (answer instanceof z.ZodType) {
    const envelope = z.object({ code: z.number(), msg: z.string(), data: answer });
    return { 200: { description: "`code` 200; `data` is the result", content: { "application/json": { schema: envelope } } } };
  }
  switch (answer.kind) {
    case "plain":
      return { 200: { description: answer.description, content: { "application/json": { schema: answer.schema } } } };
    case "events":
      return {
        200: {
          description: `${answer.description} (the schema is the JSON of each event's \`data:\` line)`,
          content: { "text/event-stream": { schema: answer.schema } },
        },
      };
    case "redirect":
      return { [answer.status]: { description: answer.description } };
    case "file":
      return { 200: { description: answer.description, content: { [answer.contentType]: { schema: { type: "string", format: "binary" } } } } };
  }
}

/**
 * An API path's area, the segment after `/api` or `/admin/api` (`/api/Subscribe/requestPayout` is served by the router
 * of `/api/Subscribe` as `/requestPayout`); any other path (`/sandbox-pay/:sessionId`) is an area of its own.
 */
function areaOf(path: string): { area: string; rest: string } {
  const m = /^(\/(?:admin\/)?api\/[^/:]+)(\/.*)?$/i.exec(path);
  return m ? { area: m[1]!, rest: m[2] ?? "/" } : { area: "/", rest: path };
}
