-- Issue 29 item 5: the sidebar's search finds threads by what was said in them, not only by
-- title. A trigram FTS5 index over the finished messages' text (same rowid as `messages`) finds
-- the candidate messages of a substring query; the query still checks `LIKE`, so the index only
-- narrows. A streaming message is indexed once it completes: its row is rewritten on every
-- delta, and re-indexing each one would cost the append path for text nobody searches yet.
-- FTS5 has no Prisma model: this table and its shadow tables live only in this migration.
CREATE VIRTUAL TABLE "messages_text_search" USING fts5("text", tokenize = 'trigram');

CREATE TRIGGER "messages_text_search_insert" AFTER INSERT ON "messages"
WHEN NEW."status" = 'complete'
BEGIN
  INSERT INTO "messages_text_search" (rowid, "text")
    VALUES (NEW.rowid, coalesce(json_extract(NEW."data", '$.text'), ''));
END;

CREATE TRIGGER "messages_text_search_update" AFTER UPDATE OF "data" ON "messages"
WHEN NEW."status" = 'complete' OR OLD."status" = 'complete'
BEGIN
  DELETE FROM "messages_text_search" WHERE rowid = OLD.rowid;
  INSERT INTO "messages_text_search" (rowid, "text")
    SELECT NEW.rowid, coalesce(json_extract(NEW."data", '$.text'), '')
    WHERE NEW."status" = 'complete';
END;

CREATE TRIGGER "messages_text_search_delete" AFTER DELETE ON "messages"
BEGIN
  DELETE FROM "messages_text_search" WHERE rowid = OLD.rowid;
END;

-- Rows written before this migration.
INSERT INTO "messages_text_search" (rowid, "text")
  SELECT rowid, coalesce(json_extract("data", '$.text'), '') FROM "messages"
  WHERE "status" = 'complete';
