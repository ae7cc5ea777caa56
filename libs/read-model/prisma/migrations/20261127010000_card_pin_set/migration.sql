-- Whether a card has a PIN, for Lithic's pin_status (OK or NOT_SET); the PIN's hash stays in the event store.
-- Rows written before this migration read false until the projector rebuilds them from their events.
ALTER TABLE "cards" ADD COLUMN "pin_set" BOOLEAN NOT NULL DEFAULT false;
