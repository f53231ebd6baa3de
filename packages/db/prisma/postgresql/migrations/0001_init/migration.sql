-- CreateTable
CREATE TABLE "events" (
    "sequence" BIGINT NOT NULL,
    "stream_id" TEXT NOT NULL,
    "stream_version" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "command_id" TEXT,
    "recorded_at" TEXT NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("sequence")
);

-- CreateTable
CREATE TABLE "streams" (
    "stream_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,

    CONSTRAINT "streams_pkey" PRIMARY KEY ("stream_id")
);

-- CreateTable
CREATE TABLE "command_receipts" (
    "command_id" TEXT NOT NULL,
    "stream_id" TEXT NOT NULL,
    "first_sequence" BIGINT NOT NULL,
    "last_sequence" BIGINT NOT NULL,
    "stream_version" INTEGER NOT NULL,
    "receipt" TEXT NOT NULL,

    CONSTRAINT "command_receipts_pkey" PRIMARY KEY ("command_id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "threads" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "threads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attempts" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "nodes" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "nodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plans" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "turn_items" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "turn_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transfers" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "handoffs" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "handoffs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_sessions" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "provider_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_threads" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "provider_threads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_turns" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "provider_turns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "requests" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "checkpoints" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT,
    "sort_key" INTEGER NOT NULL,
    "run_ordinal" INTEGER,
    "status" TEXT,
    "data" TEXT NOT NULL,
    "updated_sequence" BIGINT NOT NULL,

    CONSTRAINT "checkpoints_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "events_stream_id_stream_version_key" ON "events"("stream_id", "stream_version");

-- CreateIndex
CREATE INDEX "projects_thread_id_sort_key_idx" ON "projects"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "projects_status_idx" ON "projects"("status");

-- CreateIndex
CREATE INDEX "threads_thread_id_sort_key_idx" ON "threads"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "threads_status_idx" ON "threads"("status");

-- CreateIndex
CREATE INDEX "runs_thread_id_sort_key_idx" ON "runs"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "runs_status_idx" ON "runs"("status");

-- CreateIndex
CREATE INDEX "attempts_thread_id_sort_key_idx" ON "attempts"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "attempts_status_idx" ON "attempts"("status");

-- CreateIndex
CREATE INDEX "nodes_thread_id_sort_key_idx" ON "nodes"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "nodes_status_idx" ON "nodes"("status");

-- CreateIndex
CREATE INDEX "messages_thread_id_sort_key_idx" ON "messages"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "messages_status_idx" ON "messages"("status");

-- CreateIndex
CREATE INDEX "plans_thread_id_sort_key_idx" ON "plans"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "plans_status_idx" ON "plans"("status");

-- CreateIndex
CREATE INDEX "turn_items_thread_id_sort_key_idx" ON "turn_items"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "turn_items_status_idx" ON "turn_items"("status");

-- CreateIndex
CREATE INDEX "transfers_thread_id_sort_key_idx" ON "transfers"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "transfers_status_idx" ON "transfers"("status");

-- CreateIndex
CREATE INDEX "handoffs_thread_id_sort_key_idx" ON "handoffs"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "handoffs_status_idx" ON "handoffs"("status");

-- CreateIndex
CREATE INDEX "provider_sessions_thread_id_sort_key_idx" ON "provider_sessions"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "provider_sessions_status_idx" ON "provider_sessions"("status");

-- CreateIndex
CREATE INDEX "provider_threads_thread_id_sort_key_idx" ON "provider_threads"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "provider_threads_status_idx" ON "provider_threads"("status");

-- CreateIndex
CREATE INDEX "provider_turns_thread_id_sort_key_idx" ON "provider_turns"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "provider_turns_status_idx" ON "provider_turns"("status");

-- CreateIndex
CREATE INDEX "requests_thread_id_sort_key_idx" ON "requests"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "requests_status_idx" ON "requests"("status");

-- CreateIndex
CREATE INDEX "checkpoints_thread_id_sort_key_idx" ON "checkpoints"("thread_id", "sort_key");

-- CreateIndex
CREATE INDEX "checkpoints_status_idx" ON "checkpoints"("status");

