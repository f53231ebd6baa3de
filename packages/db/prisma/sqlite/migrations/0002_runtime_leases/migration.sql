-- CreateTable
CREATE TABLE "runtime_leases" (
    "thread_id" TEXT NOT NULL PRIMARY KEY,
    "owner" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL
);
