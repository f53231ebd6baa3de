-- Issue 28: a thread's row is written on nearly every append (its activity time moves), and the
-- listing trigger of 0005 then rewrote all four listing columns, and so all three listing indexes,
-- even when only `lastActivityAt` had moved. Each index page it touches is one more page in the
-- commit's WAL write. The same columns are now set by two triggers that fire only when what they
-- derive differs from what is stored: the activity time (two indexes), and the project, title and
-- visibility (rarely). The stored values are the same as 0005's trigger left them.
DROP TRIGGER "threads_listing_update";

CREATE TRIGGER "threads_listing_activity" AFTER UPDATE OF "data" ON "threads"
WHEN json_extract(NEW."data", '$.lastActivityAt') IS NOT OLD."active_at"
BEGIN
  UPDATE "threads" SET "active_at" = json_extract(NEW."data", '$.lastActivityAt')
  WHERE "id" = NEW."id";
END;

CREATE TRIGGER "threads_listing_identity" AFTER UPDATE OF "data" ON "threads"
WHEN json_extract(NEW."data", '$.projectId') IS NOT OLD."project_id"
  OR json_extract(NEW."data", '$.title') IS NOT OLD."title"
  OR CASE
      WHEN json_extract(NEW."data", '$.deletedAt') IS NOT NULL THEN 'deleted'
      WHEN json_extract(NEW."data", '$.archivedAt') IS NOT NULL THEN 'archived'
      ELSE 'active' END IS NOT OLD."visibility"
BEGIN
  UPDATE "threads" SET
    "project_id" = json_extract(NEW."data", '$.projectId'),
    "title" = json_extract(NEW."data", '$.title'),
    "visibility" = CASE
      WHEN json_extract(NEW."data", '$.deletedAt') IS NOT NULL THEN 'deleted'
      WHEN json_extract(NEW."data", '$.archivedAt') IS NOT NULL THEN 'archived'
      ELSE 'active' END
  WHERE "id" = NEW."id";
END;
