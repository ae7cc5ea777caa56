-- GET /v1/events lists a program's events newest first by (created, token), with cursors on that key.

-- CreateIndex
CREATE INDEX "feed_events_program_token_created_token_idx" ON "feed_events"("program_token", "created", "token");
