-- Issue 26/34: the port a thread holds, as a column the store writes with the row (see
-- packages/db/src/sqlite/thread-row-writer.ts), indexed with the visibility: a new thread's first
-- run reads the ports open threads hold from the index alone instead of every thread's row
-- (~77 ms at 20,000 threads, under a claim every instance's new threads wait for).
ALTER TABLE "threads" ADD COLUMN "port" INTEGER;

CREATE INDEX "threads_visibility_port_idx" ON "threads"("visibility", "port");

-- Rows written before this migration.
UPDATE "threads" SET "port" = json_extract("data", '$.port')
WHERE json_type("data", '$.port') = 'integer';
