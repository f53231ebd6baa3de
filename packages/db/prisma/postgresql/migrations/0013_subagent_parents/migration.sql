-- T9/E9: the thread a sub-agent's child thread works for, as a column the listing trigger fills
-- from the row's JSON, indexed: deleting a thread finds its sub-agent children by index instead
-- of reading every thread's row.
ALTER TABLE "threads" ADD COLUMN "subagent_of" TEXT;

-- CreateIndex
CREATE INDEX "threads_subagent_of_idx" ON "threads"("subagent_of");

CREATE OR REPLACE FUNCTION "threads_listing"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  NEW."port" := CASE WHEN jsonb_typeof(shell->'port') = 'number'
    THEN (shell->>'port')::integer END;
  NEW."subagent_of" := CASE
    WHEN shell#>>'{lineage,relationshipToParent}' = 'subagent'
      AND jsonb_typeof(shell#>'{lineage,parentThreadId}') = 'string'
    THEN shell#>>'{lineage,parentThreadId}' END;
  RETURN NEW;
END
$$;

-- Rows written before this migration.
UPDATE "threads" SET "subagent_of" = "data"::jsonb#>>'{lineage,parentThreadId}'
WHERE "data"::jsonb#>>'{lineage,relationshipToParent}' = 'subagent'
  AND jsonb_typeof("data"::jsonb#>'{lineage,parentThreadId}') = 'string';
