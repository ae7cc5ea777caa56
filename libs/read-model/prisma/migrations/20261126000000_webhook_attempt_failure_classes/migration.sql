-- The delivery log shows a program only the class of a failed attempt (docs/webhooks.md). The errno,
-- address and port that older attempts recorded ("ECONNREFUSED: connect ECONNREFUSED 10.0.0.5:5432")
-- told a program what listens where inside our network. Older rows become their class; a non-2xx
-- answer, recorded without an error until now, is 'http_status'; and the constraint keeps any other
-- text out of the column.
UPDATE "webhook_attempts"
   SET "error" = CASE WHEN "error" LIKE 'timed out%' THEN 'timeout' ELSE 'connection_failed' END
 WHERE "error" IS NOT NULL AND "error" NOT IN ('http_status', 'connection_failed', 'timeout', 'refused_by_egress_policy');

UPDATE "webhook_attempts"
   SET "error" = 'http_status'
 WHERE "error" IS NULL AND "response_status" IS NOT NULL AND ("response_status" < 200 OR "response_status" >= 300);

ALTER TABLE "webhook_attempts"
  ADD CONSTRAINT "webhook_attempts_error_class" CHECK ("error" IN ('http_status', 'connection_failed', 'timeout', 'refused_by_egress_policy'));
