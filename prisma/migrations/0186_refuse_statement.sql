-- Lets one statement undo itself: `CASE WHEN <it worked> THEN true ELSE refuse_statement('…') END` in its result
-- raises, and PostgreSQL rolls back everything the statement's CTEs wrote. A chat message is accepted in one
-- autocommit statement (the person's message, the reply, the charge); a short balance must leave none of it
-- (docs/decisions/227). SQLSTATE RV001 is ours: the caller recognises it (`isRefusedStatement`) and answers the refusal.
CREATE FUNCTION refuse_statement(reason text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'RV001', MESSAGE = reason;
END
$$;
