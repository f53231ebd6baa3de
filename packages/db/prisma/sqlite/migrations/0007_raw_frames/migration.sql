-- Issue 18 (B8, E18): an event names the raw provider frame it came from, so a frame in the
-- rotating raw log leads to the sequences it produced.

-- AlterTable
ALTER TABLE "events" ADD COLUMN "raw_event_id" TEXT;

-- CreateIndex
CREATE INDEX "events_raw_event_id_idx" ON "events"("raw_event_id");
