-- Read models of programs, api-keys, funding sources and cards, and the projector checkpoints.
-- Written in the form `prisma migrate dev` produces for schema.prisma; applied by migrateReadModel.
-- No schema-qualified names: the migrator sets search_path (rebuilds go into a fresh schema).

-- CreateTable
CREATE TABLE "programs" (
    "token" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "programs_pkey" PRIMARY KEY ("token")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "key_id" UUID NOT NULL,
    "key_hash" TEXT NOT NULL,
    "program_token" UUID NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL,
    "revoked" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("key_id")
);

-- CreateTable
CREATE TABLE "funding_sources" (
    "token" UUID NOT NULL,
    "program_token" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "nickname" TEXT NOT NULL,
    "account_name" TEXT NOT NULL,
    "last_four" TEXT NOT NULL,
    "is_default" BOOLEAN NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "funding_sources_pkey" PRIMARY KEY ("token")
);

-- CreateTable
CREATE TABLE "cards" (
    "token" UUID NOT NULL,
    "program_token" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "memo" TEXT NOT NULL,
    "spend_limit" BIGINT NOT NULL,
    "spend_limit_duration" TEXT NOT NULL,
    "funding_token" UUID NOT NULL,
    "exp_month" TEXT NOT NULL,
    "exp_year" TEXT NOT NULL,
    "last_four" TEXT NOT NULL,
    "pan_hash" TEXT NOT NULL,
    "pan_encrypted" TEXT NOT NULL,
    "hostname" TEXT NOT NULL DEFAULT '',
    "created" TIMESTAMPTZ(3) NOT NULL,
    "updated" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cards_pkey" PRIMARY KEY ("token")
);

-- CreateTable
CREATE TABLE "projector_checkpoints" (
    "name" TEXT NOT NULL,
    "commit_position" BIGINT NOT NULL,
    "prepare_position" BIGINT NOT NULL,
    "updated" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "projector_checkpoints_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_program_token_idx" ON "api_keys"("program_token");

-- CreateIndex
CREATE INDEX "funding_sources_program_token_idx" ON "funding_sources"("program_token");

-- CreateIndex
CREATE UNIQUE INDEX "cards_pan_hash_key" ON "cards"("pan_hash");

-- CreateIndex
CREATE INDEX "cards_program_token_created_token_idx" ON "cards"("program_token", "created", "token");
