-- Issue 20 (B7): a stream's events after a sequence are an index range, so an aggregate catching
-- up from its snapshot or cache reads what changed, not its whole stream.
-- CreateIndex
CREATE INDEX "events_stream_id_sequence_idx" ON "events"("stream_id", "sequence");

-- The sidebar's title search: `title ILIKE '%…%'` (unchanged) can use a trigram index instead of
-- testing every thread's title. Prisma cannot declare it; pg_trgm is a trusted extension, kept in
-- `public` so every store schema shares it.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE INDEX "threads_title_trgm_idx" ON "threads" USING gin ("title" public.gin_trgm_ops);
