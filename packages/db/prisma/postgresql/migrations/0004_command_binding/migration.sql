-- AlterTable
ALTER TABLE "command_receipts" ADD COLUMN     "procedure" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "payload_hash" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "command_intents" (
    "command_id" TEXT NOT NULL,
    "procedure" TEXT NOT NULL,
    "payload_hash" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,

    CONSTRAINT "command_intents_pkey" PRIMARY KEY ("command_id")
);
