-- Every API instance keeps the logins it has resolved in memory (docs/decisions/221). What it keeps comes from the
-- sessions, users and staff rows, so any committed change to one of them says so on the channel
-- reverie_session_cache, whoever makes it (a logout, a ban, a role change, a ledger write moving the balance, a
-- console edit, a future domain): {"userId": n} or {"staffId": n}. PostgreSQL sends a notification only if the
-- transaction commits, once per distinct payload per transaction, and to every instance listening on the database.
CREATE FUNCTION reverie_session_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('reverie_session_cache', json_build_object('userId', r.id)::text);
  ELSIF TG_TABLE_NAME = 'staff' THEN
    PERFORM pg_notify('reverie_session_cache', json_build_object('staffId', r.id)::text);
  ELSIF r.user_id IS NOT NULL THEN
    PERFORM pg_notify('reverie_session_cache', json_build_object('userId', r.user_id)::text);
  ELSIF r.staff_id IS NOT NULL THEN
    PERFORM pg_notify('reverie_session_cache', json_build_object('staffId', r.staff_id)::text);
  END IF;
  RETURN NULL;
END $$;

-- any change at all is said (updated_at moves with every Prisma update of users and staff; a session's last_seen_at is
-- written at most every five minutes), so a column added to what the session lookup reads can never be forgotten here
CREATE TRIGGER users_session_cache AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION reverie_session_cache_notify();

CREATE TRIGGER staff_session_cache AFTER UPDATE OR DELETE ON "staff"
  FOR EACH ROW EXECUTE FUNCTION reverie_session_cache_notify();

-- a new session needs nothing: no instance can have kept a token before it existed
CREATE TRIGGER sessions_session_cache AFTER UPDATE OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION reverie_session_cache_notify();
