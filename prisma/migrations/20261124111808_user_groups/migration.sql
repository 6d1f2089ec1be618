-- AlterTable
ALTER TABLE "users" ADD COLUMN     "groups" TEXT[] DEFAULT ARRAY[]::TEXT[];
