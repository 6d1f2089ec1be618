-- The forecast's stored facts (lib/store/shoot-forecasts.ts): per shoot, from when and until when
-- its stored items and failures answer a forecast (null: to be computed, as after every write),
-- and the items themselves, read in answer order through the index on (at, namespace, name, seq).
-- AlterTable
ALTER TABLE "shoots" ADD COLUMN     "forecast_computed_from" TIMESTAMPTZ(3),
ADD COLUMN     "forecast_fails_from" TIMESTAMPTZ(3),
ADD COLUMN     "forecast_failures" JSONB,
ADD COLUMN     "forecast_valid_until" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "shoot_forecast_items" (
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "cloud_profile" TEXT NOT NULL,
    "fails_from" TIMESTAMPTZ(3),
    "item" TEXT NOT NULL,

    CONSTRAINT "shoot_forecast_items_pkey" PRIMARY KEY ("namespace","name","seq")
);

-- CreateIndex
CREATE INDEX "shoot_forecast_items_at_namespace_name_seq_idx" ON "shoot_forecast_items"("at", "namespace", "name", "seq");

-- CreateIndex
CREATE INDEX "shoots_forecast_valid_until_idx" ON "shoots"("forecast_valid_until");

-- CreateIndex
CREATE INDEX "shoots_forecast_computed_from_idx" ON "shoots"("forecast_computed_from");

-- CreateIndex
CREATE INDEX "shoots_forecast_fails_from_idx" ON "shoots"("forecast_fails_from");

-- AddForeignKey
ALTER TABLE "shoot_forecast_items" ADD CONSTRAINT "shoot_forecast_items_namespace_name_fkey" FOREIGN KEY ("namespace", "name") REFERENCES "shoots"("namespace", "name") ON DELETE CASCADE ON UPDATE CASCADE;
