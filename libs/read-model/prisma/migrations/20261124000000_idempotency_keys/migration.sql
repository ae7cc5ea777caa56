-- Idempotency keys: the first outcome of a POST or PATCH sent with an Idempotency-Key header, kept
-- per program and key so a repeat of the same request gets the same answer and no second effect.

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "program_token" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'in_progress',
    "response_status" INTEGER,
    "response_body" TEXT,
    "created" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("program_token","key")
);

-- CreateIndex
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");
