-- Lithic's product_id and replacement_for on a card. Every card projected before was issued without a
-- plastic and replaced none, so null is right for every row.
ALTER TABLE "cards" ADD COLUMN "product_id" TEXT;
ALTER TABLE "cards" ADD COLUMN "replacement_for" UUID;
