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

-- a users row changes rarely except for its balance; any change at all (updated_at moves with every Prisma update)
-- is said, so a column added to what the session lookup reads can never be forgotten here
CREATE TRIGGER users_session_cache AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION reverie_session_cache_notify();

CREATE TRIGGER staff_session_cache AFTER UPDATE OR DELETE ON "staff"
  FOR EACH ROW EXECUTE FUNCTION reverie_session_cache_notify();

-- a session's last_seen_at is touched every few minutes by the instance that reads it; only what decides whether the
-- token is good is said (a new session needs nothing: no instance can have cached a token before it existed)
CREATE TRIGGER sessions_session_cache AFTER UPDATE ON "sessions"
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
                     OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.staff_id IS DISTINCT FROM NEW.staff_id)
  EXECUTE FUNCTION reverie_session_cache_notify();

CREATE TRIGGER sessions_deleted_session_cache AFTER DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION reverie_session_cache_notify();
