import crypto from "node:crypto";
import path from "node:path";
import { PROJECT_DIR, workflowModelSlots } from "./paths.ts";
import { z } from "zod";
import { Address } from "@ton/core";
import { PAGSMILE_LOCAL_METHODS } from "./contract/payments.ts";

/** `sbp=<code>,tpay=<code>`: a Pagsmile local method, its code, comma-separated. */
const METHOD_CODE = `\\s*(${PAGSMILE_LOCAL_METHODS.join("|")})=[\\w.-]{1,32}\\s*`;
const METHOD_CODES = new RegExp(`^${METHOD_CODE}(,${METHOD_CODE})*$`);
import { ENGINE_KINDS } from "./contract/engines.ts";
import { CHARACTER_TIERS } from "./contract/chat.ts";
import { TRAINERS } from "./contract/training.ts";
import { S3_CHECKSUM_MODES } from "./storage/s3.client.ts";

const bool = z.enum(["1", "0", "true", "false", "yes", "no"]).transform((v) => v === "1" || v === "true" || v === "yes");

/** One chat back end of CHAT_BACKENDS: an OpenAI-compatible server (vLLM, llama-server, Ollama, a hosted router). */
export const chatBackendSetting = z.strictObject({
  /** Shown in the console's back-end status; unique. */
  name: z.string().min(1).max(40),
  /** The API root that /chat/completions is appended to, e.g. http://gpu1:8000/v1 */
  baseUrl: z.string().url(),
  apiKey: z.string().optional(),
  model: z.string().min(1),
  /** The tiers it serves (CHARACTER_TIERS); all of them when omitted. */
  tiers: z
    .array(z.enum(CHARACTER_TIERS))
    .min(1)
    .default([...CHARACTER_TIERS]),
  /** The model's context size in tokens; prompts are fitted inside it. */
  contextTokens: z.number().int().min(512).default(8192),
  /** The most tokens one reply may have. */
  maxReplyTokens: z.number().int().min(16).default(512),
  /**
   * The server answers OpenAI tool calls (vLLM with `--enable-auto-tool-choice --tool-call-parser …`, llama-server
   * with `--jinja`, an Ollama model with tool support): the character may offer a picture of itself (issue 50 item 3).
   */
  tools: z.boolean().default(false),
});
export type ChatBackendSetting = z.infer<typeof chatBackendSetting>;

function parseChatBackends(s: string | undefined, ctx: z.RefinementCtx): ChatBackendSetting[] {
  if (!s?.trim()) return [];
  let json: unknown;
  try {
    json = JSON.parse(s);
  } catch {
    ctx.addIssue({ code: "custom", message: "must be a JSON array of back ends" });
    return z.NEVER;
  }
  const parsed = z.array(chatBackendSetting).safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    ctx.addIssue({ code: "custom", message: `${i.path.join(".")}: ${i.message}` });
    return z.NEVER;
  }
  if (new Set(parsed.data.map((b) => b.name)).size !== parsed.data.length) {
    ctx.addIssue({ code: "custom", message: "back-end names must be unique" });
    return z.NEVER;
  }
  return parsed.data;
}

const list = z.string().transform((s) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean),
);

/** Every setting of Reverie. README.md documents each one. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default("0.0.0.0"),
    PUBLIC_URL: z.string().url().optional(),
    DATA_DIR: z.string().default("./data"),
    /** The built operator console (npm run build:console), served at /console; relative paths are from the project root. */
    CONSOLE_DIR: z.string().default("dist/console"),
    DATABASE_URL: z.string().url().optional(),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
    DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** Limits on every API database connection (docs/decisions/244): a lock wait, a statement, a transaction left idle, a wait for a connection. */
    DB_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
    DB_IDLE_IN_TRANSACTION_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
    DB_POOL_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    /** A worker process's statements may run longer (`npm run worker`); its lock and idle limits are the API's. */
    DB_WORKER_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(500).max(3_600_000).default(120_000),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SEED_ON_START: bool.default(true),
    RUN_WORKER: bool.default(true),
    TRUST_PROXY: z.string().default("loopback"),
    /** `/metrics` and the per-request timing behind it (docs/decisions/277). */
    METRICS_ENABLED: bool.default(true),
    /** A scraper presenting `Authorization: Bearer <token>` may read `/metrics` from any address. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** Addresses that may read `/metrics` without the token, as the socket sees them (comma-separated; empty for none). */
    METRICS_ALLOW: list.default(["127.0.0.1", "::1"]),

    SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    STAFF_SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(12),
    /** Logins each API instance keeps in memory, kept fresh by NOTIFY (docs/decisions/221); 0 reads every one from the database. */
    SESSION_CACHE_SIZE: z.coerce.number().int().min(0).default(100_000),
    /** The longest a kept login is trusted without being read again, whatever the notifications say. */
    SESSION_CACHE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    EMAIL_CODE_TTL_SECONDS: z.coerce.number().int().min(60).default(600),
    EMAIL_CODE_RESEND_SECONDS: z.coerce.number().int().min(0).default(60),
    EMAIL_CODE_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
    RATE_LIMIT_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(10),
    RATE_LIMIT_IP_PER_HOUR: z.coerce.number().int().min(1).default(60),
    RATE_LIMIT_LOGIN_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_VISITOR_PER_HOUR: z.coerce.number().int().min(1).default(100),
    RATE_LIMIT_UPLOADS_PER_HOUR: z.coerce.number().int().min(1).default(200),
    UPLOADS_AT_ONCE_PER_ACCOUNT: z.coerce.number().int().min(1).max(100).default(4),
    RATE_LIMIT_GENERATIONS_PER_HOUR: z.coerce.number().int().min(1).default(300),
    RATE_LIMIT_REPORTS_PER_HOUR: z.coerce.number().int().min(1).default(30),
    /** Provenance checks ("Was this made with Reverie?") per IP per hour: each one decodes a file of up to 100 MB. */
    RATE_LIMIT_PROVENANCE_CHECKS_PER_HOUR: z.coerce.number().int().min(1).default(60),
    /** Upheld takedowns after which an account is suspended automatically (docs/decisions/151). */
    REPEAT_OFFENDER_TAKEDOWNS: z.coerce.number().int().min(1).max(100).default(3),
    /** Days content reported or confirmed as underage is kept in the restricted evidence store (18 U.S.C. 2258A: at least a year). */
    EVIDENCE_RETENTION_DAYS: z.coerce.number().int().min(365).max(3650).default(365),
    /** Days a confirmed account deletion can still be undone before its personal data is erased (decision 262). */
    ACCOUNT_DELETION_GRACE_DAYS: z.coerce.number().int().min(0).max(30).default(7),
    /** Hours a finished data export stays downloadable before its archive is deleted (decision 261). */
    DATA_EXPORT_KEEP_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(72),

    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().default("Reverie <no-reply@reverie.local>"),

    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    GOOGLE_REDIRECT_URI: z.string().url().optional(),
    /** Google's signing certificates (PEM by key id, as google-auth-library fetches them in Node); tests point it at a local fake. */
    GOOGLE_CERTS_URL: z.string().url().default("https://www.googleapis.com/oauth2/v1/certs"),
    GOOGLE_ISSUERS: list.default(["accounts.google.com", "https://accounts.google.com"]),
    /** Where an authorization code from /googleCallback is exchanged for tokens; tests point it at a local fake. */
    GOOGLE_TOKEN_URL: z.string().url().default("https://oauth2.googleapis.com/token"),

    FREE_GENERATIONS: z.coerce.number().int().min(0).default(1),

    STORAGE: z.enum(["local", "s3"]).default("local"),
    /** HMAC key of local media URLs; unset: a random key kept in $DATA_DIR/media.secret (set it when several API instances share the disk). */
    MEDIA_URL_SECRET: z.string().min(16).optional(),
    /**
     * The operator's C2PA signing certificate chain (PEM, signing certificate first) and its PKCS#8 PEM private key
     * (ES256, P-256). Unset: a CA and a signing certificate made on first start and kept in $DATA_DIR/provenance/.
     */
    PROVENANCE_CERT_FILE: z.string().optional(),
    PROVENANCE_KEY_FILE: z.string().optional(),
    /** The name Content Credentials give as the maker ("claim generator") of every output. */
    PROVENANCE_ISSUER: z.string().min(1).max(64).default("Reverie"),
    MEDIA_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(30)
      .max(7 * 24 * 3600)
      .default(3600),
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_ENDPOINT: z.string().url().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.default(true),
    /** The SDK's own checksums; unset: `when_required` with S3_ENDPOINT (S3-compatible stores), `when_supported` on AWS (issue 51). */
    S3_CHECKSUMS: z.enum(S3_CHECKSUM_MODES).optional(),

    /** The engine of templates that name none (decision 080); `comfyui` needs COMFYUI_URLS, `serverless` SERVERLESS_URL. */
    GENERATION_ENGINE: z.enum(ENGINE_KINDS).default("local"),
    /** ffmpeg and ffprobe to run; unset = the ones on PATH, else the static builds shipped in npm packages (decision 060). */
    FFMPEG_PATH: z.string().min(1).optional(),
    FFPROBE_PATH: z.string().min(1).optional(),
    /** The process's search path, read here so that media tools are found without reading the environment elsewhere. */
    PATH: z.string().default(""),
    /** ComfyUI servers of the GPU pool, comma-separated base URLs (decision 081). */
    COMFYUI_URLS: list.default([]),
    /** Model files the workflows load, `slot=file` comma-separated, over each binding file's defaults (decision 082). */
    COMFYUI_MODELS: list
      .transform((pairs, ctx) => {
        const out: Record<string, string> = {};
        for (const p of pairs) {
          const at = p.indexOf("=");
          const slot = p.slice(0, at).trim();
          if (at < 1 || at === p.length - 1) ctx.addIssue({ code: "custom", message: `"${p}" is not slot=file` });
          // sdxl=a,sdxl=b: which file was meant is not ours to guess (issue 44, item 9)
          else if (slot in out) ctx.addIssue({ code: "custom", message: `slot "${slot}" is named twice (${out[slot]}, ${p.slice(at + 1).trim()})` });
          else out[slot] = p.slice(at + 1).trim();
        }
        // a misspelt slot would otherwise be ignored and its workflow silently keep the default file (issue 34)
        const slots = workflowModelSlots();
        for (const slot of Object.keys(out).filter((k) => !slots.includes(k)))
          ctx.addIssue({ code: "custom", message: `unknown slot "${slot}"; valid slots: ${slots.join(", ")}` });
        return out;
      })
      .default({}),
    /** How often each ComfyUI server's /system_stats and /queue are read, and its workflows checked against /object_info. */
    COMFYUI_HEALTH_SECONDS: z.coerce.number().min(0.2).default(10),
    COMFYUI_WORKFLOW_CHECK_SECONDS: z.coerce.number().min(1).default(300),
    /** Servers one run of a task may try (a server that dies mid-job hands it to the next) before the attempt fails. */
    COMFYUI_MAX_TRIES: z.coerce.number().int().min(1).max(10).default(3),
    /**
     * Prompts one ComfyUI server holds at once, counting other clients' (ComfyUI's queue has no bound and slows as it
     * grows): Reverie queues there only below it; the rest wait in Reverie's own queue (issue 44 item 10).
     */
    COMFYUI_PROMPTS_PER_SERVER: z.coerce.number().int().min(1).max(20).default(2),
    /** A queue-based serverless endpoint (RunPod's API: /run, /status/{id}, /cancel/{id}), e.g. https://api.runpod.ai/v2/<endpoint id>. */
    SERVERLESS_URL: z.string().url().optional(),
    SERVERLESS_API_KEY: z.string().optional(),
    SERVERLESS_POLL_SECONDS: z.coerce.number().min(0.05).default(2),
    /**
     * How long a link a GPU server fetches a character model's weights by stays valid (decision 330): it covers a job's
     * wait in the server's queue; a removed model's link stops working at once whatever is left of it.
     */
    GPU_LORA_LINK_SECONDS: z.coerce.number().int().min(60).max(86_400).default(1800),
    GENERATION_TIMEOUT_SECONDS: z.coerce
      .number()
      .int()
      .min(5)
      .max(6 * 3600)
      .default(600),
    GENERATION_RETRY_LIMIT: z.coerce.number().int().min(0).max(10).default(2),
    GENERATION_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(5),
    /** How often a worker tells the database its render is alive (docs/decisions/076). */
    GENERATION_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
    /** A running task with no heartbeat for this long is run again by another worker; its old worker, if alive, stops itself first. */
    GENERATION_STALE_SECONDS: z.coerce.number().int().min(3).max(600).default(15),
    GENERATION_RESULT_TTL_HOURS: z.coerce.number().min(0.001).default(168),
    /** Credits for each started block of GENERATION_PRICE_SECONDS of video, per resolution. */
    GENERATION_PRICE_480P: z.coerce.number().int().min(0).default(1),
    GENERATION_PRICE_720P: z.coerce.number().int().min(0).default(2),
    GENERATION_PRICE_SECONDS: z.coerce.number().int().min(1).default(5),
    /** What one GPU-hour costs and what one credit sells for, in USD: the console's measured cost per template (decision 239). */
    GPU_HOUR_COST_USD: z.coerce.number().min(0).default(3.5),
    CREDIT_VALUE_USD: z.coerce.number().positive().default(0.0998),
    IMAGE_CREDIT_PRICE: z.coerce.number().int().min(0).default(1),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** Processes that run the worker also render each template's preview loop, re-checking this often. */
    TEMPLATE_PREVIEWS: bool.default(true),
    TEMPLATE_PREVIEW_SWEEP_SECONDS: z.coerce.number().int().min(10).default(300),
    QUEUE_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
    QUEUE_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).default(30),
    /** The built consumer app served at `/` (`npm run build:consumer`). */
    CONSUMER_DIST_DIR: z.string().default("./dist/consumer"),
    /** Minutes an unpaid order stays payable before the sweep expires it. */
    ORDER_EXPIRY_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
    ORDER_SWEEP_SECONDS: z.coerce.number().int().min(5).default(60),
    /** Issue 16: hours a creator has to answer a custom request before it expires and the fan gets the credits back. */
    CREATOR_REQUEST_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(72),
    /** Issue 16: ratings a creator needs before the page shows a satisfaction rate. */
    CREATOR_MIN_RATINGS: z.coerce.number().int().min(1).default(5),
    RATE_LIMIT_ORDERS_PER_HOUR: z.coerce.number().int().min(1).default(30),
    /** The built-in test checkout; unset = on in the tests and while PUBLIC_URL is loopback (not in production), off elsewhere. */
    SANDBOX_PAY_ENABLED: bool.optional(),
    /** Signs sandbox notifications; set it when several instances serve the sandbox. */
    SANDBOX_WEBHOOK_SECRET: z
      .string()
      .min(16)
      .default(() => crypto.randomBytes(24).toString("hex")),
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    /** Tests only: a local fake Stripe API (http://127.0.0.1:port). */
    STRIPE_API_URL: z.string().url().optional(),
    PAYPAL_CLIENT_ID: z.string().optional(),
    PAYPAL_CLIENT_SECRET: z.string().optional(),
    PAYPAL_WEBHOOK_ID: z.string().optional(),
    /** Unset = PayPal's live API in production, its sandbox API otherwise. */
    PAYPAL_API_BASE: z.string().url().optional(),
    /** Pagsmile: the app id and security key from its dashboard (the key also signs its notifications). */
    PAGSMILE_APP_ID: z.string().optional(),
    PAGSMILE_SECURITY_KEY: z.string().optional(),
    /** Unset = Pagsmile's live gateway in production, its test gateway otherwise. */
    PAGSMILE_API_BASE: z.string().url().optional(),
    /**
     * Pagsmile's method codes for the local methods, as its account manager issues them (they are not in the public
     * documentation): `sbp=<code>,sberpay=<code>,tpay=<code>`. A method without a code is not offered.
     */
    PAGSMILE_METHOD_CODES: z.string().regex(METHOD_CODES, "sbp=<code>,sberpay=<code>,tpay=<code>").optional(),
    /** Messaging-channel login: the Telegram bot whose Mini App runs Reverie (initData is checked with its token). */
    TELEGRAM_BOT_TOKEN: z
      .string()
      .regex(/^\d+:[\w-]+$/, "<bot id>:<secret> as BotFather gives it")
      .optional(),
    /** How old a Mini App's auth_date may be when it logs in. */
    TELEGRAM_INIT_DATA_MAX_AGE_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3600),
    /** NOWPayments (USDT): API key and IPN secret from its dashboard; both needed. */
    NOWPAYMENTS_API_KEY: z.string().optional(),
    NOWPAYMENTS_IPN_SECRET: z.string().optional(),
    /** Unset = https://api.nowpayments.io; tests point it at a local fake. */
    NOWPAYMENTS_API_BASE: z.string().url().optional(),
    /** The coin buyers pay in (a NOWPayments currency code). */
    NOWPAYMENTS_PAY_CURRENCY: z
      .string()
      .regex(/^[a-z0-9]{2,20}$/)
      .default("usdttrc20"),
    /**
     * JPay, the messaging channel's TON wallet payments (docs/decisions/210): our wallet that receives the transfers, in
     * any TON address form. Unset (or JPAY_TON_RATE unset) = the wallet option is not offered.
     */
    TON_RECEIVING_ADDRESS: z
      .string()
      .trim()
      .refine((s) => Address.isFriendly(s) || Address.isRaw(s), { error: "a TON address (EQ…/UQ… or 0:<64 hex>)" })
      .optional(),
    /** The price in TON: how many TON one unit of the shop's currency costs, e.g. `USD=0.32`; orders in another currency cannot be paid in TON. */
    JPAY_TON_RATE: z
      .string()
      .regex(/^[A-Z]{3}=\d{1,9}(\.\d{1,9})?$/, "<currency>=<TON per unit>, e.g. USD=0.32")
      .optional(),
    /** The TON HTTP API (toncenter's v3 API) that payments are verified against and unknown wallets' keys read from; tests point it at a local fake. */
    TON_API_URL: z.string().url().default("https://toncenter.com"),
    /** toncenter API key (X-API-Key); without one toncenter allows about one request a second. */
    TON_API_KEY: z.string().optional(),
    /** Which TON network the wallets and the receiving address are on. */
    TON_NETWORK: z.enum(["mainnet", "testnet"]).default("mainnet"),
    /** How long a ton_proof payload stays usable, and how old a proof's signed timestamp may be. */
    TON_PROOF_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(900),

    // Ad pixels and server-side conversions (docs/decisions/120-123)
    /** tests only: vendor scripts and pixels come from <this URL>/<official host>/<path> instead of the official hosts */
    PIXEL_SCRIPT_BASE_URL: z.string().url().optional(),
    META_CAPI_URL: z.string().url().default("https://graph.facebook.com/v21.0"),
    TIKTOK_EVENTS_URL: z.string().url().default("https://business-api.tiktok.com/open_api/v1.3/event/track/"),
    GOOGLE_ADS_API_URL: z.string().url().default("https://googleads.googleapis.com/v18"),
    CONVERSION_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(8),
    CONVERSION_RETRY_BASE_SECONDS: z.coerce.number().min(0.05).default(30),
    CONVERSION_POLL_SECONDS: z.coerce.number().min(0.05).default(5),
    CONVERSION_TIMEOUT_SECONDS: z.coerce.number().min(1).max(120).default(15),
    /**
     * Key of the secret store that seals conversion API tokens (docs/decisions/191): 32 random bytes as 64 hex digits
     * or base64. Unset = tokens cannot be set or read, and server-side conversions stay off.
     */
    SECRETS_KEY: z
      .string()
      .trim()
      .refine((s) => /^[0-9a-f]{64}$/i.test(s) || Buffer.from(s, "base64").length === 32, { error: "must be 32 bytes as 64 hex digits or base64" })
      .optional(),
    /** Chat back ends in failover order (JSON array, see chatBackendSetting); unset = chat says it is not available yet. */
    CHAT_BACKENDS: z
      .string()
      .optional()
      .transform((s, ctx) => parseChatBackends(s, ctx)),
    /** Credits per chat reply, by character tier. */
    CHAT_PRICE_STANDARD: z.coerce.number().int().min(0).default(1),
    CHAT_PRICE_PREMIUM: z.coerce.number().int().min(0).default(2),
    /** Replies a guest account gets without credits. */
    CHAT_FREE_MESSAGES: z.coerce.number().int().min(0).default(3),
    /** A back end that sends no first token within this many seconds is abandoned for the next one. */
    CHAT_FIRST_TOKEN_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(300).default(30),
    /** An OpenAI-compatible moderation endpoint (POST {url}/moderations) checked next to the built-in rules; unset = rules only. */
    CHAT_MODERATION_URL: z.string().url().optional(),
    CHAT_MODERATION_KEY: z.string().optional(),
    CHAT_MODERATION_MODEL: z.string().default("omni-moderation-latest"),
    /** A streaming reply is sent to the moderation endpoint at the first sentence end after this many new characters (at twice as many without one). */
    CHAT_MODERATION_STREAM_CHARS: z.coerce.number().int().min(20).max(10_000).default(300),
    /** Refused attempts after which chat is suspended for the account and a report is raised. */
    CHAT_POLICY_STRIKES: z.coerce.number().int().min(1).default(3),
    RATE_LIMIT_CHAT_PER_HOUR: z.coerce.number().int().min(1).default(600),
    /** Messages one account may send to support per clock hour (docs/decisions/281); more are refused with the hourly message. */
    RATE_LIMIT_SUPPORT_PER_HOUR: z.coerce.number().int().min(1).default(30),
    /**
     * What one account may make (docs/decisions/251): quotas count what it holds now, hourly rates what it made in the
     * last clock hour (counted in PostgreSQL, shared by every API instance).
     */
    QUOTA_CHARACTERS: z.coerce.number().int().min(1).default(50),
    QUOTA_CONVERSATIONS: z.coerce.number().int().min(1).default(300),
    QUOTA_OPEN_REQUESTS: z.coerce.number().int().min(1).default(10),
    QUOTA_LIBRARY_ITEMS: z.coerce.number().int().min(1).default(1000),
    RATE_LIMIT_CHARACTERS_PER_HOUR: z.coerce.number().int().min(1).default(20),
    RATE_LIMIT_CONVERSATIONS_PER_HOUR: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_DRAFTS_PER_HOUR: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_AVATARS_PER_HOUR: z.coerce.number().int().min(1).default(20),
    /** Pictures and clips one account may ask characters for per hour (issue 50), beside RATE_LIMIT_GENERATIONS_PER_HOUR. */
    RATE_LIMIT_CHAT_MEDIA_PER_HOUR: z.coerce.number().int().min(1).default(60),
    RATE_LIMIT_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(10),
    RATE_LIMIT_LIBRARY_ITEMS_PER_HOUR: z.coerce.number().int().min(1).default(60),
    RATE_LIMIT_REPORTS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).default(20),

    /** The trainer back end of character-model training; unset = training is not available (said before any charge). */
    TRAINER: z.enum(TRAINERS).optional(),
    TRAINING_PRICE: z.coerce.number().int().min(0).default(5),
    /** A model still training after this is cancelled at the trainer, failed and refunded. */
    TRAINING_TIMEOUT_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(60),
    /** The polling fallback when a webhook does not arrive. */
    TRAINING_POLL_SECONDS: z.coerce.number().int().min(1).default(30),
    /** Checked weights files above this are refused (a Flux LoRA of rank 16-32 is ~100-350 MB). */
    TRAINING_WEIGHTS_MAX_MB: z.coerce.number().int().min(1).default(2048),
    /** A set whose youngest apparent age is under this waits for a moderator instead of going to the trainer. */
    TRAINING_REVIEW_AGE: z.coerce.number().min(18).max(80).default(25),
    /** An uploaded photo or video frame with a face whose apparent age is under this is held for review (issue 19, docs/decisions/140). */
    SCREENING_REVIEW_AGE: z.coerce.number().min(18).max(80).default(25),
    /** How alike (0-1, Human's descriptor similarity) a photo's face must be to the selfie; a filter for mistakes, not proof (docs/decisions/171). */
    TRAINING_FACE_MATCH: z.coerce.number().min(0.2).max(0.95).default(0.36),
    /** A set with any photo less alike than this waits for a moderator: strangers were measured up to 0.69 (docs/decisions/171). */
    TRAINING_FACE_REVIEW: z.coerce.number().min(0.2).max(0.95).default(0.6),
    /** Days the consent record (selfie frames and face checks) is kept after the model ends. */
    CONSENT_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
    REPLICATE_API_TOKEN: z.string().optional(),
    REPLICATE_API_URL: z.string().url().default("https://api.replicate.com"),
    /** `owner/name:version` of the trainer model, e.g. ostris/flux-dev-lora-trainer:<version id>. */
    REPLICATE_TRAINER: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+:[\w]+$/, "owner/name:version")
      .optional(),
    /** `owner/name` of the (private) Replicate model the trainings push versions to. */
    REPLICATE_DESTINATION: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/, "owner/name")
      .optional(),
    /** The account's webhook signing secret (`whsec_...`, GET /v1/webhooks/default/secret). */
    REPLICATE_WEBHOOK_SECRET: z.string().startsWith("whsec_").optional(),
    FAL_KEY: z.string().optional(),
    FAL_QUEUE_URL: z.string().url().default("https://queue.fal.run"),
    FAL_TRAINER_APP: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/, "owner/app")
      .default("fal-ai/flux-lora-fast-training"),
    /** fal's webhook signing keys (ED25519, JWKS). */
    FAL_JWKS_URL: z.string().url().default("https://rest.alpha.fal.ai/.well-known/jwks.json"),

    ADMIN_USERNAME: z.string().min(3).default("admin"),
    ADMIN_PASSWORD: z.string().min(12).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.GENERATION_STALE_SECONDS < 2 * c.GENERATION_HEARTBEAT_SECONDS) {
      ctx.addIssue({ code: "custom", path: ["GENERATION_STALE_SECONDS"], message: "must be at least twice GENERATION_HEARTBEAT_SECONDS" });
    }
    if (c.GENERATION_ENGINE === "comfyui" && !c.COMFYUI_URLS.length)
      ctx.addIssue({ code: "custom", path: ["COMFYUI_URLS"], message: "required when GENERATION_ENGINE is comfyui" });
    if (c.GENERATION_ENGINE === "serverless" && !c.SERVERLESS_URL)
      ctx.addIssue({ code: "custom", path: ["SERVERLESS_URL"], message: "required when GENERATION_ENGINE is serverless" });
    if (c.TRAINER === "replicate") {
      for (const k of ["REPLICATE_API_TOKEN", "REPLICATE_TRAINER", "REPLICATE_DESTINATION", "REPLICATE_WEBHOOK_SECRET"] as const) {
        if (!c[k]) ctx.addIssue({ code: "custom", path: [k], message: "required when TRAINER=replicate" });
      }
    }
    if (!c.PROVENANCE_CERT_FILE !== !c.PROVENANCE_KEY_FILE) {
      ctx.addIssue({ code: "custom", path: ["PROVENANCE_KEY_FILE"], message: "PROVENANCE_CERT_FILE and PROVENANCE_KEY_FILE are set together" });
    }
    if (c.TRAINER === "fal" && !c.FAL_KEY) ctx.addIssue({ code: "custom", path: ["FAL_KEY"], message: "required when TRAINER=fal" });
    if ((c.GOOGLE_CLIENT_SECRET || c.GOOGLE_REDIRECT_URI) && !c.GOOGLE_CLIENT_ID) {
      ctx.addIssue({ code: "custom", path: ["GOOGLE_CLIENT_ID"], message: "required when GOOGLE_CLIENT_SECRET or GOOGLE_REDIRECT_URI is set" });
    }
  });

export type Config = z.infer<typeof configSchema> & { publicUrl: string; dataDir: string; consoleDir: string };

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    consoleDir: path.resolve(PROJECT_DIR, c.CONSOLE_DIR),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ""),
  };
}

let loaded: Config | undefined;
/** The process's configuration, parsed from the environment on first use. */
export function config(): Config {
  loaded ??= parseConfig(process.env);
  return loaded;
}
