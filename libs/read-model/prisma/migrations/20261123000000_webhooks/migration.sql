-- Webhooks: event subscriptions (a projection), the webhook outbox and its delivery log.

-- CreateTable
CREATE TABLE "event_subscriptions" (
    "token" UUID NOT NULL,
    "program_token" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "event_types" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "failing" BOOLEAN NOT NULL DEFAULT false,
    "secret_sealed" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL,
    "updated" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "event_subscriptions_pkey" PRIMARY KEY ("token")
);

-- CreateTable
CREATE TABLE "webhook_messages" (
    "id" UUID NOT NULL,
    "event_id" TEXT NOT NULL,
    "subscription_token" UUID NOT NULL,
    "program_token" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "round_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_response_status" INTEGER,
    "created" TIMESTAMPTZ(3) NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "message_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "subscription_token" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "url" TEXT NOT NULL,
    "response_status" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("message_id","attempt")
);

-- CreateIndex
CREATE INDEX "event_subscriptions_program_token_created_token_idx" ON "event_subscriptions"("program_token", "created", "token");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_messages_event_id_subscription_token_key" ON "webhook_messages"("event_id", "subscription_token");

-- CreateIndex
CREATE INDEX "webhook_messages_status_next_attempt_at_idx" ON "webhook_messages"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_messages_subscription_token_created_idx" ON "webhook_messages"("subscription_token", "created");

-- CreateIndex
CREATE INDEX "webhook_attempts_subscription_token_at_idx" ON "webhook_attempts"("subscription_token", "at");
