import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response, type Router } from "express";
import { OpenAPIRegistry, OpenApiGeneratorV3, extendZodWithOpenApi, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { abilityFor, type Action, type AppAbility, type Subject } from "../authz/abilities.ts";
import { anonymous, type Principal, type StaffPrincipal, type UserPrincipal } from "../authz/principal.ts";
import { sendError, sendOk } from "./envelope.ts";
import { HttpError } from "./errors.ts";
import { MSG } from "./messages.ts";

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
type Returned<R extends Answer> = R extends z.ZodType ? z.input<R> : R extends { kind: "plain"; schema: infer S extends z.ZodType } ? z.input<S> | undefined : void | undefined;

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
  }
}

/**
 * Builds every API route as one chain: authenticate -> require login -> CASL permission -> validate -> handler,
 * and records the route in the OpenAPI registry from the same zod schemas.
 */
export class ApiRouter {
  readonly registry = new OpenAPIRegistry();
  /**
   * Routes without path parameters (almost all: ids travel in the query or body), by method and lower-cased path, each
   * with the app's common middleware in front. Express tests a request against each of its route layers in turn, and
   * an error walks the rest of them (docs/decisions/226); its router's own bookkeeping for the five common layers was
   * still a tenth of a cheap request (docs/decisions/227). A map finds the route in one lookup and one chain runs it.
   */
  private readonly fixed = new Map<string, RequestHandler[]>();
  /** The few routes with path parameters (`/sandbox-pay/:sessionId`), matched by Express after the common middleware. */
  private readonly withParams: Router = express.Router({ caseSensitive: false });

  /**
   * Serves the routes without path parameters ahead of Express's router, for every request `app` receives (tests'
   * supertest included): Express's entry, `app.handle`, is wrapped so that such a request gets the request and response
   * objects `app.handle` would make and runs its route's chain, common middleware included, with errors going straight
   * to the error handler. Anything else goes on into Express unchanged. Express's router bookkeeping for the common
   * layers was a tenth of a cheap request, and its entry alone, for one layer, still ~5 % (docs/decisions/227).
   */
  serveAhead(app: Express): void {
    const entry = app as unknown as { handle: (req: Request, res: Response, callback?: (err?: unknown) => void) => void };
    const viaExpress = entry.handle.bind(app);
    entry.handle = (req, res, callback) => {
      Object.setPrototypeOf(req, app.request);
      Object.setPrototypeOf(res, app.response);
      const chain = this.fixed.get(routeKey(req.method === "HEAD" ? "GET" : req.method, req.path));
      if (!chain) return viaExpress(req, res, callback);
      req.res = res;
      res.req = req;
      res.locals ??= Object.create(null);
      req.originalUrl = req.url;
      req.baseUrl = "";
      req.params = {};
      // a chain that ends without answering (none does) is a route that is not there
      const notFound = () => sendError(res, 404, MSG.notFound);
      runChain(chain, req, res, (err) => (err ? this.served.onError(err, req, res, notFound) : notFound()));
    };
  }

  /** Routes with path parameters, mounted after the common middleware. */
  readonly paramRoutes: RequestHandler = this.withParams;

  /**
   * @param served.common the middleware every request passes first (request log, security headers, body parsers)
   * @param served.onError the app's error handler
   */
  constructor(
    private readonly resolvePrincipal: ResolvePrincipal,
    private readonly served: { common: RequestHandler[]; onError: ErrorRequestHandler },
  ) {}

  get<R extends Answer, Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<z.ZodUndefined, Q, P, R> & { auth: M },
    handler: Handler<undefined, z.infer<Q>, z.infer<P>, M, R>,
  ) {
    this.add("get", path, spec, handler);
  }

  post<R extends Answer, B extends z.ZodType = z.ZodUndefined, Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<B, Q, P, R> & { auth: M },
    handler: Handler<z.infer<B>, z.infer<Q>, z.infer<P>, M, R>,
  ) {
    this.add("post", path, spec, handler);
  }

  put<R extends Answer, B extends z.ZodType = z.ZodUndefined, Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<B, Q, P, R> & { auth: M },
    handler: Handler<z.infer<B>, z.infer<Q>, z.infer<P>, M, R>,
  ) {
    this.add("put", path, spec, handler);
  }

  delete<R extends Answer, Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<z.ZodUndefined, Q, P, R> & { auth: M },
    handler: Handler<undefined, z.infer<Q>, z.infer<P>, M, R>,
  ) {
    this.add("delete", path, spec, handler);
  }

  private add(method: "get" | "post" | "put" | "delete", path: string, spec: RouteSpec<z.ZodType, AnyObject, AnyObject>, handler: Handler<any, any, any, any, Answer>) {
    this.document(method, path, spec);
    const admit = this.admission(spec);
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
    if (!/[:*?(]/.test(path)) {
      const key = routeKey(method.toUpperCase(), path);
      if (this.fixed.has(key)) throw new Error(`route ${method.toUpperCase()} ${path} is declared twice`);
      this.fixed.set(key, [...this.served.common, ...chain]);
    } else this.withParams[method](path, ...chain);
  }

  /** Authenticate, require the route's kind of login, refuse banned accounts, then the route's CASL check. */
  private admission(spec: RouteSpec<z.ZodType, AnyObject, AnyObject>): (req: Request) => Promise<void> {
    const mode = spec.auth;
    return async (req) => {
      const principal = req.principal ?? (await this.principalFor(req, mode));
      if (mode === "user" && principal.kind !== "user") throw HttpError.unauthorized();
      if (mode === "staff" && principal.kind !== "staff") throw HttpError.unauthorized();
      if (principal.kind === "user" && principal.banned) throw HttpError.forbidden(MSG.noLoginPermission);
      req.principal = principal;
      req.ability = abilityFor(principal);
      if (spec.can && !req.ability.can(spec.can[0], spec.can[1])) throw HttpError.forbidden();
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
      return { 200: { description: `${answer.description} (the schema is the JSON of each event's \`data:\` line)`, content: { "text/event-stream": { schema: answer.schema } } } };
    case "redirect":
      return { [answer.status]: { description: answer.description } };
    case "file":
      return { 200: { description: answer.description, content: { [answer.contentType]: { schema: { type: "string", format: "binary" } } } } };
  }
}

/** Express's matching without a trailing slash, case-insensitive (`strict` and `caseSensitive` off). */
function routeKey(method: string, path: string): string {
  const p = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return `${method} ${p.toLowerCase()}`;
}

/**
 * Runs a route's handlers in order as Express does: each calls `next` to pass on, an error (thrown, passed to `next`,
 * or a rejected promise) goes to the app's error handler, and after the last one the request goes on to `done`.
 */
function runChain(chain: RequestHandler[], req: Request, res: Response, done: (err?: unknown) => void): void {
  let i = 0;
  const next = (err?: unknown) => {
    if (err) return done(err);
    const handler = chain[i++];
    if (!handler) return done();
    try {
      const result: unknown = handler(req, res, next);
      if (result instanceof Promise) result.catch((e: unknown) => done(e ?? new Error("Rejected promise")));
    } catch (e) {
      done(e);
    }
  };
  next();
}

/** Parses body, query and params with the route's zod schemas; the first problem's message is the answer. */
function validated(spec: RouteSpec<z.ZodType, AnyObject, AnyObject>, req: Request) {
  const { t: _cacheBuster, ...query } = req.query as Record<string, unknown>;
  return {
    body: spec.body ? parse(spec.body, req.body ?? {}) : undefined,
    query: spec.query ? parse(spec.query, query) : {},
    params: spec.params ? parse(spec.params, req.params) : req.params,
  };
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw HttpError.badRequest(result.error.issues[0]?.message ?? MSG.badRequest);
}

