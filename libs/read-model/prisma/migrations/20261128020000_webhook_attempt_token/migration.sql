-- Lithic's MessageAttempt has a token of its own, which its lists take as a cursor. New attempts get
-- a name-based UUID of "<message id>/<attempt>" from the dispatcher (webhookAttemptToken), so a
-- retried insert names the same attempt. Attempts logged before this migration get a random one,
-- kept from then on: an attempt's token never changes once written.
ALTER TABLE "webhook_attempts" ADD COLUMN "token" UUID;
UPDATE "webhook_attempts" SET "token" = gen_random_uuid();
ALTER TABLE "webhook_attempts" ALTER COLUMN "token" SET NOT NULL;
CREATE UNIQUE INDEX "webhook_attempts_token_key" ON "webhook_attempts"("token");
