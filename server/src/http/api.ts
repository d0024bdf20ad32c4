import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from "express";
import { OpenAPIRegistry, OpenApiGeneratorV3, extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { defineAbilityFor, type Action, type AppAbility, type Subject } from "../authz/abilities.ts";
import { anonymous, type Principal, type StaffPrincipal, type UserPrincipal } from "../authz/principal.ts";
import { sendOk } from "./envelope.ts";
import { HttpError } from "./errors.ts";
import { MSG } from "./messages.ts";

extendZodWithOpenApi(z);

export type AuthMode = "public" | "user" | "staff";

type AnyObject = z.ZodType<Record<string, unknown>>;

export interface RouteSpec<B extends z.ZodType, Q extends AnyObject, P extends AnyObject> {
  summary: string;
  tags?: string[];
  /** public: anyone (a token is still read when present); user / staff: that kind of login is required. */
  auth: AuthMode;
  /** The CASL check made before the handler runs; instance checks happen in services. */
  can?: [Action, Subject];
  body?: B;
  query?: Q;
  params?: P;
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

/** What a handler returns is the `data` of the envelope; returning `undefined` after writing to `res` itself is allowed (redirects, streams). */
type Handler<B, Q, P, M extends AuthMode> = (ctx: RouteContext<B, Q, P, Who<M>>) => Promise<unknown> | unknown;

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
  readonly router: Router = express.Router({ caseSensitive: false });
  readonly registry = new OpenAPIRegistry();

  constructor(private readonly resolvePrincipal: ResolvePrincipal) {}

  get<Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<z.ZodUndefined, Q, P> & { auth: M },
    handler: Handler<undefined, z.infer<Q>, z.infer<P>, M>,
  ) {
    this.add("get", path, spec, handler);
  }

  post<B extends z.ZodType = z.ZodUndefined, Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<B, Q, P> & { auth: M },
    handler: Handler<z.infer<B>, z.infer<Q>, z.infer<P>, M>,
  ) {
    this.add("post", path, spec, handler);
  }

  put<B extends z.ZodType = z.ZodUndefined, Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<B, Q, P> & { auth: M },
    handler: Handler<z.infer<B>, z.infer<Q>, z.infer<P>, M>,
  ) {
    this.add("put", path, spec, handler);
  }

  delete<Q extends AnyObject = z.ZodObject, P extends AnyObject = z.ZodObject, M extends AuthMode = AuthMode>(
    path: string,
    spec: RouteSpec<z.ZodUndefined, Q, P> & { auth: M },
    handler: Handler<undefined, z.infer<Q>, z.infer<P>, M>,
  ) {
    this.add("delete", path, spec, handler);
  }

  private add(method: "get" | "post" | "put" | "delete", path: string, spec: RouteSpec<z.ZodType, AnyObject, AnyObject>, handler: Handler<any, any, any, any>) {
    this.document(method, path, spec);
    const chain: RequestHandler[] = [
      this.authenticate(spec.auth),
      ...(spec.can ? [permission(spec.can[0], spec.can[1])] : []),
      ...(spec.before ?? []),
      validate(spec),
      async (req, res) => {
        const v = res.locals.valid as { body: unknown; query: unknown; params: unknown };
        const data = await handler({ ...v, principal: req.principal!, ability: req.ability!, req, res });
        if (!res.headersSent && data !== undefined) sendOk(res, data);
      },
    ];
    this.router[method](path, ...chain);
  }

  private authenticate(mode: AuthMode): RequestHandler {
    return async (req, _res, next: NextFunction) => {
      const principal = req.principal ?? (await this.principalFor(req, mode));
      if (mode === "user" && principal.kind !== "user") throw HttpError.unauthorized();
      if (mode === "staff" && principal.kind !== "staff") throw HttpError.unauthorized();
      if (principal.kind === "user" && principal.banned) throw HttpError.forbidden(MSG.noLoginPermission);
      req.principal = principal;
      req.ability = defineAbilityFor(principal);
      next();
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
    const envelope = z.object({ code: z.number(), msg: z.string(), data: z.unknown() });
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
        200: { description: "`code` 200; `data` is the result", content: { "application/json": { schema: envelope } } },
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

/** Type-level CASL check: can this principal do `action` on some `subject` at all? */
export function permission(action: Action, subject: Subject): RequestHandler {
  return (req, _res, next) => {
    if (!req.ability?.can(action, subject)) throw HttpError.forbidden();
    next();
  };
}

/** Parses body, query and params with the route's zod schemas; the first problem's message is the answer. */
function validate(spec: RouteSpec<z.ZodType, AnyObject, AnyObject>): RequestHandler {
  return (req, res, next) => {
    const { t: _cacheBuster, ...query } = req.query as Record<string, unknown>;
    res.locals.valid = {
      body: spec.body ? parse(spec.body, req.body ?? {}) : undefined,
      query: spec.query ? parse(spec.query, query) : {},
      params: spec.params ? parse(spec.params, req.params) : req.params,
    };
    next();
  };
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw HttpError.badRequest(result.error.issues[0]?.message ?? MSG.badRequest);
}

