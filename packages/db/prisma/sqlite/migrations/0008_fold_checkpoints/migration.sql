-- Issue 18 (B8): past-read fold checkpoints survive a restart, so the first past read after one
-- folds from the nearest stored checkpoint instead of from the start of the stream.

-- CreateTable
CREATE TABLE "fold_checkpoints" (
    "stream_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "sequence" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "body" TEXT NOT NULL,

    PRIMARY KEY ("stream_id", "version")
);
