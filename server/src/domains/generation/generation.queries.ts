import type { FollowUp, GallerySort, GenerationMode, TaskStatus } from "../../contract/generation.ts";
import { QUEUE_STATES } from "../../contract/metrics.ts";
import { Prisma } from "../../db/generated/client.ts";
import { col, countsPerDay, statement, type Column } from "../../db/statement.ts";

/** NOTIFY channel that wakes idle workers the moment a job commits, instead of at their next poll. */
export const JOB_WAKEUP_CHANNEL = "reverie_generation_jobs";

/** The TaskStatus enum, read as the contract's status words. */
const taskStatus: Column<TaskStatus> = { types: col.text.types, nullable: false };
/** A running task whose worker has been silent for `staleSeconds` (it may be run again elsewhere). */
const silentFor = (staleSeconds: number) => Prisma.sql`heartbeat_at < now() - make_interval(secs => ${staleSeconds})`;
const EXAMPLE_JOB = "00000000-0000-4000-8000-000000000000";
/** An example typed as the statement's parameters, where its values alone would infer narrower ones (a null job id). */
const exampleOf = <P>(params: P): P => params;

type FailTaskParams = { taskId: number; error: string; failedInput?: string | null; attempts?: number; jobId?: string | null };
type ClaimAttemptParams = { taskId: number; jobId: string | null; staleSeconds: number };

/** A submitted task, created in the charging transaction (the hot path, run on pg: docs/decisions/226). */
export const insertTask = statement({
  columns: { id: col.int, cost: col.int, status: taskStatus, paidWith: col.text },
  sql: (p: {
    userId: number;
    jobId: string;
    mode: GenerationMode;
    templateId?: number;
    engine: string;
    cost: number;
    paidWith: "free" | "credits";
    idempotencyKey?: string;
    input: unknown;
    resolution?: string;
    durationSec?: number;
    remixOfId?: number;
    followUp?: { kind: FollowUp; sourceId: number };
  }) => Prisma.sql`INSERT INTO generation_tasks (user_id, job_id, mode, template_id, engine, cost, paid_with, idempotency_key, input, resolution, duration_sec, remix_of_id,
      follow_up, follow_up_of_id, created_at)
    VALUES (${p.userId}, ${p.jobId}::uuid, ${p.mode}::"GenerationMode", ${p.templateId ?? null}, ${p.engine}, ${p.cost}, ${p.paidWith}, ${p.idempotencyKey ?? null},
      ${JSON.stringify(p.input)}::jsonb, ${p.resolution ?? null}, ${p.durationSec ?? null}, ${p.remixOfId ?? null},
      ${p.followUp?.kind ?? null}, ${p.followUp?.sourceId ?? null}, (now() AT TIME ZONE 'UTC'))
    RETURNING id, cost, status, paid_with AS "paidWith"`,
  example: {
    userId: 1,
    jobId: EXAMPLE_JOB,
    mode: "image_to_video",
    engine: "local",
    cost: 10,
    paidWith: "credits",
    input: { params: {}, sources: {} },
    resolution: "480P",
    durationSec: 5,
  },
});

/**
 * Fails an unfinished task; with `attempts` or `jobId`, only while that attempt or that job still owns it (a jobId of
 * null matches a task without one; undefined matches any).
 */
export const failTask = statement({
  columns: { id: col.int },
  sql: (p: FailTaskParams) => Prisma.sql`
    UPDATE generation_tasks SET status = 'failed', error = ${p.error}, failed_input = ${p.failedInput ?? null}, finished_at = now()
    WHERE id = ${p.taskId} AND status IN ('queued', 'running')
      AND (${p.attempts ?? null}::int IS NULL OR attempts = ${p.attempts ?? null}::int)
      AND (${p.jobId === undefined}::boolean OR job_id IS NOT DISTINCT FROM ${p.jobId ?? null}::uuid)
    RETURNING id`,
  example: exampleOf<FailTaskParams>({ taskId: 1, error: "failed", failedInput: null, attempts: 1, jobId: null }),
});

/** Unfinished tasks failed in the caller's transaction: a banned account's, or chosen ones (a chat conversation deleted). */
export const failTasks = statement({
  columns: { id: col.int, userId: col.int },
  sql: (p: { userId?: number; ids?: number[]; error: string }) => Prisma.sql`
    UPDATE generation_tasks SET status = 'failed', error = ${p.error}, finished_at = now()
    WHERE ${p.ids ? Prisma.sql`id = ANY(${p.ids}::int[])` : Prisma.sql`user_id = ${p.userId ?? 0}`} AND status IN ('queued', 'running') RETURNING id, user_id AS "userId"`,
  example: { ids: [1, 2] as number[] | undefined, userId: 1 as number | undefined, error: "cancelled" },
});

/** Tasks waiting and running, per engine (the console's engine status). */
export const queuedPerEngine = statement({
  columns: { engine: col.text, status: col.text, count: col.int },
  sql: () => Prisma.sql`
    SELECT engine, status::text AS status, count(*)::int AS count FROM generation_tasks WHERE status IN ('queued', 'running') GROUP BY engine, status`,
  example: {},
});

/** The average render time per template and engine over the last 7 days, most rendered first. */
export const recentRenderTimes = statement({
  columns: { template_id: col.int.orNull, engine: col.text, renders: col.int, avg_seconds: col.float },
  sql: () => Prisma.sql`
    SELECT template_id, engine, count(*)::int AS renders, avg(extract(epoch FROM finished_at - started_at))::float8 AS avg_seconds
    FROM generation_tasks WHERE status IN ('succeeded', 'expired') AND started_at IS NOT NULL AND finished_at > now() - interval '7 days'
    GROUP BY template_id, engine ORDER BY renders DESC`,
  example: {},
});

/**
 * Marks the task generating for a new attempt by this job: only while the job is the one entitled to it, and the task
 * is queued or its running worker has gone silent (docs/decisions/076).
 */
export const claimAttempt = statement({
  columns: { id: col.int },
  sql: (p: ClaimAttemptParams) => Prisma.sql`
    UPDATE generation_tasks SET status = 'running', attempts = attempts + 1, progress = 0, error = NULL, started_at = COALESCE(started_at, now()), heartbeat_at = now()
    WHERE id = ${p.taskId} AND job_id IS NOT DISTINCT FROM ${p.jobId}::uuid
      AND (status = 'queued' OR (status = 'running' AND (heartbeat_at IS NULL OR ${silentFor(p.staleSeconds)})))
    RETURNING id`,
  example: exampleOf<ClaimAttemptParams>({ taskId: 1, jobId: EXAMPLE_JOB, staleSeconds: 15 }),
});

/** Running tasks whose worker went silent, oldest first, a hundred at a time. */
export const stalledTasks = statement({
  columns: { id: col.int, attempts: col.int, job_id: col.text.orNull, user_id: col.int },
  sql: (p: { staleSeconds: number }) => Prisma.sql`
    SELECT id, attempts, job_id::text AS job_id, user_id FROM generation_tasks
    WHERE status = 'running' AND ${silentFor(p.staleSeconds)} ORDER BY id LIMIT 100`,
  example: { staleSeconds: 15 },
});

/** A stalled task back in the queue under a new job, while that attempt is still the silent one. */
export const requeueStalled = statement({
  columns: { id: col.int },
  sql: (p: { taskId: number; attempts: number; jobId: string; error: string; staleSeconds: number }) => Prisma.sql`
    UPDATE generation_tasks SET status = 'queued', progress = 0, job_id = ${p.jobId}::uuid, error = ${p.error}
    WHERE id = ${p.taskId} AND status = 'running' AND attempts = ${p.attempts}
      AND ${silentFor(p.staleSeconds)}
    RETURNING id`,
  example: { taskId: 1, attempts: 1, jobId: EXAMPLE_JOB, error: "stopped", staleSeconds: 15 },
});

/**
 * One more try of the task's attempt on a GPU back end: the workflow and the server, appended (docs/decisions/243).
 * Only while that attempt is the task's latest: a superseded worker's late record would mislabel the new attempt.
 */
export const appendRun = statement({
  columns: { id: col.int },
  sql: (p: { taskId: number; attempt: number; workflow: string; server: string }) => Prisma.sql`
    UPDATE generation_tasks
    SET runs = runs || jsonb_build_array(jsonb_build_object('attempt', ${p.attempt}::int, 'workflow', ${p.workflow}::text, 'server', ${p.server}::text, 'at', now()))
    WHERE id = ${p.taskId} AND attempts = ${p.attempt}
    RETURNING id`,
  example: { taskId: 1, attempt: 1, workflow: "sdxl-t2i", server: "http://127.0.0.1:8188" },
});

/** A NOTIFY on `channel`; inside a transaction it is delivered only if that transaction commits. */
export const notify = statement({
  columns: { notified: col.text },
  sql: (p: { channel: string; payload: string }) => Prisma.sql`SELECT pg_notify(${p.channel}, ${p.payload})::text AS notified`,
  example: { channel: "reverie_example", payload: "{}" },
});

/** One NOTIFY on `channel` per payload, in one round trip (a creator's message to all their members). */
export const notifyEach = statement({
  columns: { notified: col.text },
  sql: (p: { channel: string; payloads: string[] }) =>
    Prisma.sql`SELECT pg_notify(${p.channel}, payload)::text AS notified FROM unnest(${p.payloads}::text[]) AS payload`,
  example: { channel: "reverie_example", payloads: ["{}"] },
});

/** The worker's wake-up connection listens for committed jobs. */
export const listenForJobs = statement({
  columns: {},
  sql: () => Prisma.raw(`LISTEN ${JOB_WAKEUP_CHANNEL}`),
  example: {},
});

/**
 * The queue as the operations figures show it: tasks waiting for a worker and being rendered, and how long the oldest
 * of each has been so (waiting: since it was submitted; running: since its first start). Both states always answer.
 */
export const queueFigures = statement({
  columns: { state: col.text, jobs: col.int, oldest_seconds: col.float },
  sql: () => Prisma.sql`
    SELECT s.state, count(t.id)::int AS jobs,
      COALESCE(extract(epoch FROM now() - min(CASE WHEN s.state = 'running' THEN t.started_at ELSE t.created_at END)), 0)::float8 AS oldest_seconds
    FROM unnest(${[...QUEUE_STATES]}::text[]) AS s(state)
    LEFT JOIN generation_tasks t ON t.status::text = s.state
    GROUP BY s.state ORDER BY s.state`,
  example: {},
});

/** A finished creation (alias `t`) that is active and unexpired: what a creator's library may show (generation.reads.ts finishedMedia). */
export const FINISHED = Prisma.sql`t.state = 'active' AND t.status = 'succeeded' AND (t.expires_at IS NULL OR t.expires_at > (now() AT TIME ZONE 'UTC'))`;
/**
 * A creation everyone sees in the gallery: shared, active, finished and unexpired (the same test as gallery reads). The
 * "Following" feed (creators.queries.ts) shows the same creations.
 */
export const SHOWN = Prisma.sql`t.is_public AND ${FINISHED}`;
/** The week a UTC time falls in, as Mondays since 1970-01-05: the week "popular this week" counts likes in. */
const weekOf = (at: Prisma.Sql) => Prisma.sql`((date_trunc('week', ${at})::date - DATE '1970-01-05') / 7)`;
const THIS_WEEK = weekOf(Prisma.sql`(now() AT TIME ZONE 'UTC')`);
type LikeParams = { taskId: number; userId: number };
type GalleryParams = { sort: GallerySort; mode?: GenerationMode; templateId?: number; limit: number; offset: number };

/**
 * The gallery's filter with its fixed part written out, never bound: a prepared statement's generic plan cannot prove
 * a bound `state = $1` implies the partial indexes' predicate, and fell back to sorting every shared row (0218).
 */
const galleryWhere = (p: Pick<GalleryParams, "mode" | "templateId">) => Prisma.sql`${SHOWN}
  AND (${p.mode ?? null}::"GenerationMode" IS NULL OR t.mode = ${p.mode ?? null}::"GenerationMode")
  AND (${p.templateId ?? null}::int IS NULL OR t.template_id = ${p.templateId ?? null}::int)`;
const GALLERY_ORDER: Record<GallerySort, Prisma.Sql> = {
  new: Prisma.sql`t.id DESC`,
  // likes given this week first, then last week's, and so on: the order of generation_tasks_gallery_popular_idx
  popular: Prisma.sql`t.like_week DESC, t.week_likes DESC, t.id DESC`,
};

/** A page of the gallery's ids in order, read from the index of its order. */
export const galleryPage = statement({
  columns: { id: col.int },
  sql: (p: GalleryParams) => Prisma.sql`
    SELECT t.id FROM generation_tasks t WHERE ${galleryWhere(p)} ORDER BY ${GALLERY_ORDER[p.sort]} LIMIT ${p.limit} OFFSET ${p.offset}`,
  example: exampleOf<GalleryParams>({ sort: "popular", mode: "text_to_image", templateId: 1, limit: 20, offset: 0 }),
});

/** How many items the gallery (by mode and template) shows: an index-only count over the covering partial index. */
export const galleryCount = statement({
  columns: { total: col.int },
  sql: (p: Pick<GalleryParams, "mode" | "templateId">) => Prisma.sql`SELECT count(*)::int AS total FROM generation_tasks t WHERE ${galleryWhere(p)}`,
  example: {},
});

/**
 * One account's like of a shown creation and the task's counts, in one statement: a second like of the same account
 * (20 clicks at once) inserts nothing and counts nothing; likes of many accounts queue on the task's row.
 */
export const likeTask = statement({
  columns: { likes: col.int, ownerId: col.int },
  sql: (p: LikeParams) => Prisma.sql`
    WITH liked AS (
      INSERT INTO gallery_likes (task_id, user_id, created_at)
      SELECT t.id, ${p.userId}, (now() AT TIME ZONE 'UTC') FROM generation_tasks t WHERE t.id = ${p.taskId} AND ${SHOWN}
      ON CONFLICT DO NOTHING RETURNING task_id)
    UPDATE generation_tasks SET like_count = like_count + 1,
      week_likes = CASE WHEN like_week = ${THIS_WEEK} THEN week_likes + 1 ELSE 1 END, like_week = ${THIS_WEEK}
    WHERE id IN (SELECT task_id FROM liked) RETURNING like_count AS likes, user_id AS "ownerId"`,
  example: { taskId: 1, userId: 1 },
});

/** Takes back the caller's own like of a shown creation; the week's count only when the like was given this week. */
export const unlikeTask = statement({
  columns: { likes: col.int },
  sql: (p: LikeParams) => Prisma.sql`
    WITH gone AS (
      DELETE FROM gallery_likes l USING generation_tasks t
      WHERE l.task_id = ${p.taskId} AND l.user_id = ${p.userId} AND t.id = l.task_id AND ${SHOWN}
      RETURNING l.task_id, l.created_at)
    UPDATE generation_tasks t SET like_count = t.like_count - 1,
      week_likes = CASE WHEN t.like_week = ${weekOf(Prisma.sql`gone.created_at`)} THEN t.week_likes - 1 ELSE t.week_likes END
    FROM gone WHERE t.id = gone.task_id RETURNING t.like_count AS likes`,
  example: { taskId: 1, userId: 1 },
});

/** The tasks' counts from their rows again, after likes moved between accounts or went with an erased one. */
export const recountLikes = statement({
  columns: {},
  sql: (p: { taskIds: number[] }) => Prisma.sql`
    UPDATE generation_tasks t SET like_count = (SELECT count(*) FROM gallery_likes l WHERE l.task_id = t.id)::int,
      week_likes = (SELECT count(*) FROM gallery_likes l WHERE l.task_id = t.id AND ${weekOf(Prisma.sql`l.created_at`)} = t.like_week)::int
    WHERE t.id = ANY(${p.taskIds}::int[])`,
  example: { taskIds: [1] },
});

/** Counts a remix on its source, in the remix's charging transaction; no row when the source is no longer shown. */
export const countRemix = statement({
  columns: { id: col.int, ownerId: col.int },
  sql: (p: { taskId: number }) => Prisma.sql`
    UPDATE generation_tasks t SET remix_count = t.remix_count + 1 WHERE t.id = ${p.taskId} AND ${SHOWN} RETURNING t.id, t.user_id AS "ownerId"`,
  example: { taskId: 1 },
});

// the console dashboard's day series (docs/decisions/309): likes given, and remixes submitted
export const likesPerDay = countsPerDay("gallery_likes");
export const remixesPerDay = countsPerDay("generation_tasks", Prisma.sql`remix_of_id IS NOT NULL`);
