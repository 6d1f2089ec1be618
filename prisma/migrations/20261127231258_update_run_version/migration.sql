-- AlterTable
ALTER TABLE "update_runs" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 0;
