-- Issue 20 (B7): windowed thread reads, paged and searchable thread shells, aggregate snapshots.

-- CreateTable
CREATE TABLE "aggregate_snapshots" (
    "stream_id" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL,
    "sequence" INTEGER NOT NULL,
    "state" TEXT NOT NULL
);

-- AlterTable
ALTER TABLE "threads" ADD COLUMN "project_id" TEXT;
ALTER TABLE "threads" ADD COLUMN "title" TEXT;
ALTER TABLE "threads" ADD COLUMN "active_at" TEXT;
ALTER TABLE "threads" ADD COLUMN "visibility" TEXT;

-- CreateIndex
CREATE INDEX "threads_visibility_active_at_id_title_idx" ON "threads"("visibility", "active_at", "id", "title");

-- CreateIndex
CREATE INDEX "threads_project_id_visibility_active_at_id_title_idx" ON "threads"("project_id", "visibility", "active_at", "id", "title");

-- CreateIndex
CREATE INDEX "turn_items_thread_id_run_ordinal_sort_key_idx" ON "turn_items"("thread_id", "run_ordinal", "sort_key");

-- The listing columns follow the row's JSON: the projection writers stay generic (they write
-- id, thread_id, sort_key, run_ordinal, status, data), and the sidebar query gets real indexes.
CREATE TRIGGER "threads_listing_insert" AFTER INSERT ON "threads"
BEGIN
  UPDATE "threads" SET
    "project_id" = json_extract(NEW."data", '$.projectId'),
    "title" = json_extract(NEW."data", '$.title'),
    "active_at" = json_extract(NEW."data", '$.lastActivityAt'),
    "visibility" = CASE
      WHEN json_extract(NEW."data", '$.deletedAt') IS NOT NULL THEN 'deleted'
      WHEN json_extract(NEW."data", '$.archivedAt') IS NOT NULL THEN 'archived'
      ELSE 'active' END
  WHERE "id" = NEW."id";
END;

CREATE TRIGGER "threads_listing_update" AFTER UPDATE OF "data" ON "threads"
BEGIN
  UPDATE "threads" SET
    "project_id" = json_extract(NEW."data", '$.projectId'),
    "title" = json_extract(NEW."data", '$.title'),
    "active_at" = json_extract(NEW."data", '$.lastActivityAt'),
    "visibility" = CASE
      WHEN json_extract(NEW."data", '$.deletedAt') IS NOT NULL THEN 'deleted'
      WHEN json_extract(NEW."data", '$.archivedAt') IS NOT NULL THEN 'archived'
      ELSE 'active' END
  WHERE "id" = NEW."id";
END;

-- Rows written before this migration.
UPDATE "threads" SET "data" = "data";
