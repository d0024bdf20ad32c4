import { Prisma } from "../../db/generated/client.ts";
import { col, statement, type RowOf } from "../../db/statement.ts";

/**
 * Claims the account's check-in of `localDate` (YYYY-MM-DD of its time zone) with where it was taken from: a row when
 * claimed now; none when that date was claimed before (a concurrent twin waits on the unique index, then finds it
 * taken) or the month's cap is reached (`cap` 0: no cap). The month is [monthStart, localDate].
 */
export const claimCheckIn = statement({
  columns: { id: col.int },
  sql: (p: {
    userId: number;
    localDate: string;
    monthStart: string;
    credits: number;
    cap: number;
    ip: string | null;
    network: string | null;
    deviceIds: string[];
    fingerprints: string[];
  }) => Prisma.sql`
    INSERT INTO check_ins (user_id, local_date, credits, ip, network, device_ids, fingerprints)
    SELECT ${p.userId}, ${p.localDate}::date, ${p.credits}, ${p.ip}::text, ${p.network}::text, ${p.deviceIds}::text[], ${p.fingerprints}::text[]
    WHERE ${p.cap}::int = 0 OR (SELECT count(*) FROM check_ins
      WHERE user_id = ${p.userId} AND local_date >= ${p.monthStart}::date AND local_date < ${p.localDate}::date) < ${p.cap}::int
    ON CONFLICT (user_id, local_date) DO NOTHING
    RETURNING id`,
  example: { userId: 1, localDate: "2026-11-27", monthStart: "2026-11-01", credits: 5, cap: 0, ip: null, network: null, deviceIds: [], fingerprints: [] },
});

/** The device cookies and fingerprints of an account's sign-ins: a gift farmed from one browser is one browser's. */
export const accountDevices = statement({
  columns: { device_ids: col.texts, fingerprints: col.texts },
  sql: (p: { userId: number }) => Prisma.sql`
    SELECT COALESCE(array_agg(DISTINCT device_id) FILTER (WHERE device_id IS NOT NULL), '{}'::text[]) AS device_ids,
      COALESCE(array_agg(DISTINCT fingerprint) FILTER (WHERE fingerprint IS NOT NULL), '{}'::text[]) AS fingerprints
    FROM sessions WHERE user_id = ${p.userId}`,
  example: { userId: 1 },
});

/**
 * Serialises the daily gifts of one device, fingerprint, address and network (transaction advisory locks, taken in
 * one sorted order so two never wait on each other): two accounts of one browser tapping at once are decided one
 * after the other, and the checks below see each other's rows.
 */
export const lockCheckInSignals = statement({
  columns: { locked: col.int },
  sql: (p: { keys: string[] }) => Prisma.sql`
    SELECT count(pg_advisory_xact_lock(hashtextextended(k, 47)))::int AS locked FROM (SELECT unnest(${p.keys}::text[]) AS k ORDER BY 1) s`,
  example: { keys: ["net:203.0.113.0/24"] },
});

/**
 * Since `since`: whether another account took a daily gift with one of these device cookies or fingerprints or from
 * this address, and how many gifts this network was given (docs/decisions/345).
 */
export const checkInNeighbours = statement({
  columns: { shared: col.bool, network_gifts: col.int },
  sql: (p: { userId: number; since: Date; ip: string | null; network: string | null; deviceIds: string[]; fingerprints: string[] }) => Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM check_ins WHERE created_at >= ${p.since} AND user_id <> ${p.userId}
        AND (device_ids && ${p.deviceIds}::text[] OR fingerprints && ${p.fingerprints}::text[] OR ip = ${p.ip}::text)) AS shared,
      (SELECT count(*) FROM check_ins WHERE network = ${p.network}::text AND created_at >= ${p.since})::int AS network_gifts`,
  example: { userId: 1, since: new Date(0), ip: null, network: null, deviceIds: [], fingerprints: [] },
});

/** The account's check-in dates since `since` (YYYY-MM-DD), newest first: enough for a month's count and a streak. */
export const checkInDates = statement({
  columns: { date: col.text },
  sql: (p: { userId: number; since: string }) => Prisma.sql`
    SELECT to_char(local_date, 'YYYY-MM-DD') AS date FROM check_ins
    WHERE user_id = ${p.userId} AND local_date >= ${p.since}::date ORDER BY local_date DESC`,
  example: { userId: 1, since: "2026-10-01" },
});

/**
 * Why an invitation may not be rewarded, each as a flag (docs/decisions/302): the inviter's own account, a device
 * cookie or a normalised email shared with the inviter or with an account under a ban in force, a payer (orders.
 * payer_ref) shared with the inviter or with a banned account, a banned inviter, and a payment of the invited account
 * before this one. Against the inviter also the browser fingerprint and the address of any sign-in (issue 47: a fresh
 * profile with the inviter's fingerprint was rewarded): a stranger sharing them loses a gift, never an account, so the
 * weak signals that only flag a ban (docs/decisions/249) refuse here; against bans only strong identifiers count.
 */
export const referralSignals = statement({
  columns: {
    self: col.bool,
    inviter_banned: col.bool,
    same_device: col.bool,
    same_fingerprint: col.bool,
    same_address: col.bool,
    same_email: col.bool,
    same_payment: col.bool,
    banned_device: col.bool,
    banned_email: col.bool,
    banned_payment: col.bool,
    paid_before: col.bool,
  },
  sql: (p: { inviterId: number; inviteeId: number; orderId: number; payerRef: string | null }) => Prisma.sql`
    WITH invitee AS (SELECT merged_into_id, normalised_email(email) AS email FROM users WHERE id = ${p.inviteeId}),
    inviter AS (SELECT banned_at, normalised_email(email) AS email FROM users WHERE id = ${p.inviterId}),
    devices AS (SELECT DISTINCT device_id FROM sessions WHERE user_id = ${p.inviteeId} AND device_id IS NOT NULL),
    prints AS (SELECT DISTINCT fingerprint FROM sessions WHERE user_id = ${p.inviteeId} AND fingerprint IS NOT NULL),
    addresses AS (SELECT DISTINCT ip FROM sessions WHERE user_id = ${p.inviteeId} AND ip IS NOT NULL),
    marks AS (SELECT m.kind::text AS kind, m.value FROM ban_marks m JOIN bans b ON b.id = m.ban_id AND b.lifted_at IS NULL
      WHERE m.kind IN ('device_id', 'email'))
    SELECT
      (${p.inviteeId}::int = ${p.inviterId}::int OR COALESCE((SELECT merged_into_id FROM invitee) = ${p.inviterId}::int, false)) AS self,
      COALESCE((SELECT banned_at IS NOT NULL FROM inviter), true) AS inviter_banned,
      EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = ${p.inviterId} AND s.device_id IN (SELECT device_id FROM devices)) AS same_device,
      EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = ${p.inviterId} AND s.fingerprint IN (SELECT fingerprint FROM prints)) AS same_fingerprint,
      EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = ${p.inviterId} AND s.ip IN (SELECT ip FROM addresses)) AS same_address,
      COALESCE((SELECT i.email = r.email FROM invitee i, inviter r), false) AS same_email,
      (${p.payerRef}::text IS NOT NULL AND EXISTS (SELECT 1 FROM orders o WHERE o.user_id = ${p.inviterId} AND o.payer_ref = ${p.payerRef}::text)) AS same_payment,
      EXISTS (SELECT 1 FROM marks WHERE kind = 'device_id' AND value IN (SELECT device_id FROM devices)) AS banned_device,
      EXISTS (SELECT 1 FROM marks WHERE kind = 'email' AND normalised_email(value) = (SELECT email FROM invitee)) AS banned_email,
      (${p.payerRef}::text IS NOT NULL AND EXISTS (SELECT 1 FROM orders o JOIN users u ON u.id = o.user_id
        WHERE o.payer_ref = ${p.payerRef}::text AND u.banned_at IS NOT NULL AND o.user_id <> ${p.inviteeId})) AS banned_payment,
      EXISTS (SELECT 1 FROM orders o WHERE o.user_id = ${p.inviteeId} AND o.paid_at IS NOT NULL AND o.id <> ${p.orderId}) AS paid_before`,
  example: { inviterId: 1, inviteeId: 2, orderId: 1, payerRef: "payer" as string | null },
});

/** Locks the inviter's code row: referral decisions of one inviter run one at a time (its month's cap holds). */
export const lockInviter = statement({
  columns: { user_id: col.int },
  sql: (p: { inviterId: number }) => Prisma.sql`SELECT user_id FROM referral_codes WHERE user_id = ${p.inviterId} FOR UPDATE`,
  example: { inviterId: 1 },
});

/** How many gifts the inviter was given since `since` (the month's cap). */
export const referralGiftsSince = statement({
  columns: { n: col.int },
  sql: (p: { inviterId: number; since: Date }) => Prisma.sql`
    SELECT count(*)::int AS n FROM referrals WHERE inviter_id = ${p.inviterId} AND status IN ('paid', 'reversed') AND decided_at >= ${p.since}`,
  example: { inviterId: 1, since: new Date(0) },
});

/** Per UTC day since `since`: check-ins and their credits, referrals rewarded, refused and reversed (the console's figures). */
export const rewardDays = statement({
  columns: {
    day: col.text,
    check_ins: col.int,
    check_in_credits: col.int,
    referrals_paid: col.int,
    referral_credits: col.int,
    referrals_refused: col.int,
    referrals_reversed: col.int,
  },
  sql: (p: { since: Date }) => Prisma.sql`
    WITH c AS (SELECT created_at::date AS day, count(*)::int AS n, sum(credits)::int AS credits FROM check_ins
      WHERE created_at >= ${p.since} GROUP BY 1),
    r AS (SELECT decided_at::date AS day,
        (count(*) FILTER (WHERE status IN ('paid', 'reversed')))::int AS paid,
        COALESCE(sum(inviter_credits + invitee_credits) FILTER (WHERE status IN ('paid', 'reversed')), 0)::int AS credits,
        (count(*) FILTER (WHERE status = 'refused'))::int AS refused
      FROM referrals WHERE decided_at >= ${p.since} GROUP BY 1),
    v AS (SELECT reversed_at::date AS day, count(*)::int AS n FROM referrals WHERE reversed_at >= ${p.since} GROUP BY 1),
    days AS (SELECT day FROM c UNION SELECT day FROM r UNION SELECT day FROM v)
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day, COALESCE(c.n, 0) AS check_ins, COALESCE(c.credits, 0) AS check_in_credits,
      COALESCE(r.paid, 0) AS referrals_paid, COALESCE(r.credits, 0) AS referral_credits, COALESCE(r.refused, 0) AS referrals_refused,
      COALESCE(v.n, 0) AS referrals_reversed
    FROM days d LEFT JOIN c ON c.day = d.day LEFT JOIN r ON r.day = d.day LEFT JOIN v ON v.day = d.day
    ORDER BY d.day DESC`,
  example: { since: new Date(0) },
});
export type RewardDay = RowOf<(typeof rewardDays)["columns"]>;
