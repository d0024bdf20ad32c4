-- A one-time code is accepted once: the console login records the 30-second step of the last code it accepted and
-- refuses that step and earlier ones (docs/decisions/008).
ALTER TABLE "staff" ADD COLUMN "totp_last_step" INTEGER;
