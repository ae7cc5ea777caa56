-- Lithic's daily and lifetime account limits beside the platform's own. Every program projected
-- before had neither (the program could not record them), so 0, none, is right for every row.
ALTER TABLE "programs" ADD COLUMN "spend_limit_daily" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "programs" ADD COLUMN "spend_limit_lifetime" BIGINT NOT NULL DEFAULT 0;
