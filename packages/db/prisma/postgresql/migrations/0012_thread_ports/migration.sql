-- Issue 26/34: the port a thread holds, as a column the listing trigger fills from the row's
-- JSON, indexed with the visibility: a new thread's first run reads the ports open threads hold
-- from the index alone instead of every thread's row.
ALTER TABLE "threads" ADD COLUMN "port" INTEGER;

-- CreateIndex
CREATE INDEX "threads_visibility_port_idx" ON "threads"("visibility", "port");

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
  RETURN NEW;
END
$$;

-- Rows written before this migration.
UPDATE "threads" SET "port" = ("data"::jsonb->>'port')::integer
WHERE jsonb_typeof("data"::jsonb->'port') = 'number';
