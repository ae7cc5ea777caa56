-- Transaction counts per program and per card, kept by the projector in the same transaction as the
-- rows, so a list's total_entries is one primary-key read instead of a count over every row.

-- CreateTable
CREATE TABLE "transaction_counts" (
    "scope_token" UUID NOT NULL,
    "program_token" UUID NOT NULL,
    "approved" BIGINT NOT NULL,
    "declined" BIGINT NOT NULL,

    CONSTRAINT "transaction_counts_pkey" PRIMARY KEY ("scope_token")
);

-- Counts for the transactions already projected (a read model migrated from before this table).
INSERT INTO "transaction_counts" ("scope_token", "program_token", "approved", "declined")
SELECT "program_token", "program_token", count(*) FILTER (WHERE "result" = 'APPROVED'), count(*) FILTER (WHERE "result" <> 'APPROVED')
  FROM "transactions" GROUP BY "program_token"
UNION ALL
SELECT "card_token", min("program_token"::text)::uuid, count(*) FILTER (WHERE "result" = 'APPROVED'), count(*) FILTER (WHERE "result" <> 'APPROVED')
  FROM "transactions" GROUP BY "card_token";
