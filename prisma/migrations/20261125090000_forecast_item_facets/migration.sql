-- What the forecast page counts and narrows by, beside each stored item's JSON: its kind, the
-- version it moves from, whether it is stuck or a held rollout, and the causes that put it at risk. The summary of a whole
-- fleet's forecast is then an aggregate over these columns, not a parse of every item.
-- The items stored so far lack them: they are dropped and their shoots' facts marked to be
-- computed again (the next forecast read or the background refresh does it).
DELETE FROM "shoot_forecast_items";
UPDATE "shoots" SET "forecast_computed_from" = NULL, "forecast_valid_until" = NULL,
  "forecast_fails_from" = NULL, "forecast_failures" = NULL
WHERE "forecast_valid_until" IS NOT NULL OR "forecast_computed_from" IS NOT NULL;

-- AlterTable
ALTER TABLE "shoot_forecast_items" ADD COLUMN     "from_version" TEXT NOT NULL,
ADD COLUMN     "held" BOOLEAN NOT NULL,
ADD COLUMN     "kind" TEXT NOT NULL,
ADD COLUMN     "risk_causes" TEXT[],
ADD COLUMN     "stuck" BOOLEAN NOT NULL;
