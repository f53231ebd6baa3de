-- Issue 20 (B7): windowed thread reads, paged and searchable thread shells, aggregate snapshots.

-- CreateTable
CREATE TABLE "aggregate_snapshots" (
    "stream_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "sequence" BIGINT NOT NULL,
    "state" TEXT NOT NULL,

    CONSTRAINT "aggregate_snapshots_pkey" PRIMARY KEY ("stream_id")
);

-- AlterTable
ALTER TABLE "threads" ADD COLUMN     "project_id" TEXT,
ADD COLUMN     "title" TEXT,
ADD COLUMN     "active_at" TEXT,
ADD COLUMN     "visibility" TEXT;

-- CreateIndex
CREATE INDEX "threads_visibility_active_at_id_title_idx" ON "threads"("visibility", "active_at", "id", "title");

-- CreateIndex
CREATE INDEX "threads_project_id_visibility_active_at_id_title_idx" ON "threads"("project_id", "visibility", "active_at", "id", "title");

-- CreateIndex
CREATE INDEX "turn_items_thread_id_run_ordinal_sort_key_idx" ON "turn_items"("thread_id", "run_ordinal", "sort_key");

-- The listing columns follow the row's JSON: the projection writers stay generic (they write
-- id, thread_id, sort_key, run_ordinal, status, data), and the sidebar query gets real indexes.
CREATE FUNCTION "threads_listing"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shell jsonb := NEW."data"::jsonb;
BEGIN
  NEW."project_id" := shell->>'projectId';
  NEW."title" := shell->>'title';
  NEW."active_at" := shell->>'lastActivityAt';
  NEW."visibility" := CASE
    WHEN jsonb_typeof(shell->'deletedAt') = 'string' THEN 'deleted'
    WHEN jsonb_typeof(shell->'archivedAt') = 'string' THEN 'archived'
    ELSE 'active' END;
  RETURN NEW;
END
$$;

CREATE TRIGGER "threads_listing" BEFORE INSERT OR UPDATE OF "data" ON "threads"
FOR EACH ROW EXECUTE FUNCTION "threads_listing"();

-- Rows written before this migration.
UPDATE "threads" SET "data" = "data";
