-- Issue 20 (B7): a stream's events after a sequence are an index range, so an aggregate catching
-- up from its snapshot or cache reads what changed, not its whole stream.
-- CreateIndex
CREATE INDEX "events_stream_id_sequence_idx" ON "events"("stream_id", "sequence");

-- Issue 20 (B7): the sidebar's title search without a scan of every thread. A trigram FTS5 index
-- over `threads.title` (same rowid) finds the candidate rows of a substring query; the query
-- still checks `title LIKE`, so the index only narrows and results stay what LIKE says. FTS5
-- has no Prisma model: this table and its shadow tables live only in this migration.
CREATE VIRTUAL TABLE "threads_title_search" USING fts5("title", tokenize = 'trigram');

-- The listing triggers (0005) set `title` after every insert and shell write; follow it.
CREATE TRIGGER "threads_title_search_update" AFTER UPDATE OF "title" ON "threads"
WHEN OLD."title" IS NOT NEW."title"
BEGIN
  DELETE FROM "threads_title_search" WHERE rowid = OLD.rowid;
  INSERT INTO "threads_title_search" (rowid, "title")
    SELECT NEW.rowid, NEW."title" WHERE NEW."title" IS NOT NULL;
END;

CREATE TRIGGER "threads_title_search_delete" AFTER DELETE ON "threads"
BEGIN
  DELETE FROM "threads_title_search" WHERE rowid = OLD.rowid;
END;

-- Rows written before this migration.
INSERT INTO "threads_title_search" (rowid, "title")
  SELECT rowid, "title" FROM "threads" WHERE "title" IS NOT NULL;
