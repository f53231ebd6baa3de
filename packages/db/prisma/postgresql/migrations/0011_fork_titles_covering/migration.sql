-- B16 (issue 27): a fork's sibling number is the highest "stem (n)" at its point, computed by the
-- store over the (project, title) range. With visibility in the index the range is read from the
-- index alone: without it every sibling's row (its whole shell) was fetched to check it is not
-- deleted, ~1.5 ms a fork at a point with a thousand forks.
-- DropIndex
DROP INDEX "threads_project_id_title_idx";

-- CreateIndex
CREATE INDEX "threads_project_id_title_visibility_idx" ON "threads"("project_id", "title", "visibility");
