/** The words the operations figures are labelled with, shared by the server and the console. Import-free (docs/decisions/050). */

/** How a generation job's attempt ended, as `reverie_jobs_total` counts it. */
export const JOB_OUTCOMES = ["succeeded", "failed", "retried"] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

/** What became of a payment provider's notification, as `reverie_payment_notifications_total` counts it. */
export const NOTIFICATION_OUTCOMES = ["applied", "duplicate", "refused", "unavailable", "failed"] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

/** Which way credits moved through the ledger, as `reverie_ledger_credits_total` counts them. */
export const LEDGER_DIRECTIONS = ["granted", "spent", "refunded"] as const;
export type LedgerDirection = (typeof LEDGER_DIRECTIONS)[number];

/** The generation queue's states the figures report (a task queued waits for a worker; running is being rendered). */
export const QUEUE_STATES = ["queued", "running"] as const;

/** The route label of a request no API route answered (the apps' files, unknown paths): one label, not its URL. */
export const OTHER_ROUTE = "(other)";

/** Every series `/metrics` serves, by name: the README's alert rules and the console's operations page use these. */
export const METRIC = {
  httpDuration: "reverie_http_request_duration_seconds",
  queueJobs: "reverie_queue_jobs",
  queueOldest: "reverie_queue_oldest_job_age_seconds",
  jobs: "reverie_jobs_total",
  renderSeconds: "reverie_job_render_seconds",
  engineUp: "reverie_engine_server_up",
  chatStreaming: "reverie_chat_replies_streaming",
  chatErrors: "reverie_chat_backend_errors_total",
  notifications: "reverie_payment_notifications_total",
  ledger: "reverie_ledger_credits_total",
  outbox: "reverie_outbox_backlog",
  outboxOldest: "reverie_outbox_oldest_age_seconds",
} as const;
