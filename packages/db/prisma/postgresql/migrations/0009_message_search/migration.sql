-- Issue 29 item 5: the sidebar's search finds threads by what was said in them, not only by
-- title: `text ILIKE '%…%'` over the messages' text uses a trigram index instead of reading
-- every message. Partial: a streaming message's row is rewritten on every delta, and only
-- finished messages are searched, so only those are indexed. Prisma cannot declare an
-- expression index; pg_trgm is created by 0006.
CREATE INDEX "messages_text_trgm_idx" ON "messages"
  USING gin ((("data"::jsonb) ->> 'text') public.gin_trgm_ops) WHERE "status" = 'complete';
