-- The events feed and the webhook outbox are now written by the read-model projector in its own
-- batches (checkpoint 'read-models'); their followers' checkpoints are gone with them. Events the
-- old feed writer had not reached when the service stopped are not added to the feed.
DELETE FROM "projector_checkpoints" WHERE "name" IN ('event-feed', 'webhook-outbox');
