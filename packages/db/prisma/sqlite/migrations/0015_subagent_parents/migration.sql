-- T9/E9: the thread a sub-agent's child thread works for, as a column the store writes with the
-- row (packages/db/src/sqlite/thread-row-writer.ts), indexed: deleting a thread finds its
-- sub-agent children by index instead of reading every thread's row.
ALTER TABLE "threads" ADD COLUMN "subagent_of" TEXT;

-- CreateIndex
CREATE INDEX "threads_subagent_of_idx" ON "threads"("subagent_of");

-- Rows written before this migration.
UPDATE "threads" SET "subagent_of" = json_extract("data", '$.lineage.parentThreadId')
WHERE json_extract("data", '$.lineage.relationshipToParent') = 'subagent'
  AND json_type("data", '$.lineage.parentThreadId') = 'text';
