-- A message can be reported through moderation's report flow (issue 32 item 6, docs/decisions/310). Its own file: a
-- value added to an enum cannot be used in the transaction that adds it.
ALTER TYPE "ReportTarget" ADD VALUE 'message';
