-- The events feed: every ledger event a webhook carries, of every program (with or without a
-- subscription), as GET /v1/events and the event stream serve it. Ordered by the event's position in
-- the event store, which one writer at a time fills in order, so "after this position" never skips a
-- row that commits later.

-- CreateTable
CREATE TABLE "feed_events" (
    "token" UUID NOT NULL,
    "program_token" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL,
    "commit_position" BIGINT NOT NULL,
    "prepare_position" BIGINT NOT NULL,
    "payload" TEXT NOT NULL,

    CONSTRAINT "feed_events_pkey" PRIMARY KEY ("token")
);

-- CreateIndex
CREATE INDEX "feed_events_program_token_commit_position_prepare_position_idx" ON "feed_events"("program_token", "commit_position", "prepare_position");
