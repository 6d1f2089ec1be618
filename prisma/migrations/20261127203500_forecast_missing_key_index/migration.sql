-- The shoots without forecast facts, in key order: a read's (and the background pass's) search for
-- stale shoots walks each condition in key order from the last key with a LIMIT
-- (lib/store/shoot-forecasts.ts). Through the primary key, that walk filtered every shoot when none
-- lacked facts (118 ms a forecast read at 100,000 shoots, where it had been 1 ms); this index holds
-- exactly those shoots, so the walk reads only them: none in a fleet whose facts are kept, every
-- shoot in order after a seed. Prisma's schema cannot state a partial index; schema.prisma says so
-- beside the model.
CREATE INDEX "shoots_forecast_missing_key_idx" ON "shoots" ("namespace", "name") WHERE "forecast_valid_until" IS NULL;
