-- Transactions (spec 2.3) and the program settings that authorizations check.

-- AlterTable
ALTER TABLE "programs" ADD COLUMN "state" TEXT NOT NULL DEFAULT 'ACTIVE',
ADD COLUMN "spend_limit_transaction" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "spend_limit_weekly" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "spend_limit_monthly" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "velocity_max_authorizations" INTEGER,
ADD COLUMN "velocity_window_seconds" INTEGER,
ADD COLUMN "blocked_merchants" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "transactions" (
    "token" UUID NOT NULL,
    "program_token" UUID NOT NULL,
    "card_token" UUID NOT NULL,
    "funding_token" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "authorization_amount" BIGINT NOT NULL,
    "settled_amount" BIGINT NOT NULL,
    "merchant_amount" BIGINT NOT NULL,
    "merchant_authorization_amount" BIGINT NOT NULL,
    "merchant_currency" TEXT NOT NULL,
    "acquirer_fee" BIGINT NOT NULL DEFAULT 0,
    "rate_amount" BIGINT NOT NULL,
    "rate_merchant_amount" BIGINT NOT NULL,
    "authorization_code" TEXT NOT NULL,
    "merchant_acceptor_id" TEXT NOT NULL,
    "merchant_city" TEXT NOT NULL,
    "merchant_country" TEXT NOT NULL,
    "merchant_descriptor" TEXT NOT NULL,
    "merchant_mcc" TEXT NOT NULL,
    "merchant_state" TEXT NOT NULL,
    "events" JSONB NOT NULL,
    "version" INTEGER NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL,
    "updated" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("token")
);

-- CreateIndex
CREATE INDEX "transactions_program_token_created_token_idx" ON "transactions"("program_token", "created", "token");

-- CreateIndex
CREATE INDEX "transactions_card_token_created_idx" ON "transactions"("card_token", "created");

-- CreateIndex
CREATE INDEX "transactions_program_token_status_idx" ON "transactions"("program_token", "status");
