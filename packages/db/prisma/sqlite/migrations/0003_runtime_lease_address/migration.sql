-- AlterTable
ALTER TABLE "runtime_leases" ADD COLUMN "address" TEXT;
