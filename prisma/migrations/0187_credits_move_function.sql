-- The one movement of a credit balance, owned by the credits domain (server/src/domains/credits): a caller that moves
-- credits inside its own statement calls this function instead of splicing the credits domain's SQL into its own (a
-- chat reply charged in the statement that inserts it, docs/decisions/227). Alone it is credits' `move`, one statement:
--  - locks the account row FOR NO KEY UPDATE (the lock the balance UPDATE takes anyway: it does not wait on the KEY
--    SHARE locks of rows being inserted that reference the account, so concurrent transactions of one account queue
--    instead of deadlocking), before the idempotency key, as every movement does;
--  - writes the ledger row, stamped with the balance after it, only when points + delta >= 0, claiming the unique
--    idempotency key ON CONFLICT DO NOTHING (a concurrent twin waits, then finds the key taken: no error, so a caller's
--    transaction is never aborted by it);
--  - moves the balance (all_points too when the movement counts toward the total) only when that row was written.
-- One row always: `balance` is the balance after the movement, NULL when nothing moved (short balance, key used
-- before, no such account); `points` is the account's balance before it, NULL when there is no such account.
-- VOLATILE (the default): under READ COMMITTED each of its statements takes a fresh snapshot, and in a caller's
-- statement it runs where that statement reads it (once for each row of the CTE it is joined to), never ahead of it.
CREATE FUNCTION credits_move(
  user_id int, delta int, counts_toward_total boolean, reason text, reference text, idempotency_key text,
  staff_id int, note text, OUT balance int, OUT points int
) LANGUAGE plpgsql AS $$
-- the parameters are named as the columns they fill: an unqualified name is the column, `credits_move.x` the parameter
#variable_conflict use_column
BEGIN
  SELECT u.points INTO credits_move.points FROM users u WHERE u.id = credits_move.user_id FOR NO KEY UPDATE;
  IF credits_move.points IS NULL OR credits_move.points + credits_move.delta < 0 THEN
    RETURN;
  END IF;
  INSERT INTO ledger_entries AS e (user_id, delta, balance_after, reason, reference, idempotency_key, staff_id, note)
  VALUES (credits_move.user_id, credits_move.delta, credits_move.points + credits_move.delta, credits_move.reason,
    credits_move.reference, credits_move.idempotency_key, credits_move.staff_id, credits_move.note)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING e.balance_after INTO credits_move.balance;
  IF credits_move.balance IS NOT NULL THEN
    UPDATE users u SET points = u.points + credits_move.delta,
      all_points = u.all_points + CASE WHEN credits_move.counts_toward_total THEN credits_move.delta ELSE 0 END,
      updated_at = now()
    WHERE u.id = credits_move.user_id;
  END IF;
END
$$;
