-- CreateTable
CREATE TABLE "runtime_leases" (
    "thread_id" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "runtime_leases_pkey" PRIMARY KEY ("thread_id")
);
