-- B16 (issue 29): an untitled fork is numbered apart from its siblings by reading the titles that
-- equal its stem or continue it with " (n)". A title search (trigram index, then LIKE) cost a few
-- milliseconds per fork once a point had many forks; this index makes it a range read.
-- CreateIndex
CREATE INDEX "threads_project_id_title_idx" ON "threads"("project_id", "title");
