-- Issue 27/28: the store writes a thread row's listing columns (project, title, activity time,
-- visibility) itself, in the statement that writes the row, from the same JSON members as before
-- (see packages/db/src/sqlite/thread-row-writer.ts). The triggers that derived them ran a second
-- UPDATE of the row just written: a new thread wrote each listing index twice, and an activity
-- update parsed the row's JSON six times over. Rows already stored keep the values they have.
DROP TRIGGER "threads_listing_insert";
DROP TRIGGER "threads_listing_activity";
DROP TRIGGER "threads_listing_identity";

-- The title search was filled by 0006's update trigger when the insert trigger set the title;
-- a row now arrives with its title, so an insert adds it directly.
CREATE TRIGGER "threads_title_search_insert" AFTER INSERT ON "threads"
WHEN NEW."title" IS NOT NULL
BEGIN
  INSERT INTO "threads_title_search" (rowid, "title") VALUES (NEW.rowid, NEW."title");
END;
