import { asId, type ThreadId } from "@skein/domain";
import type { EventStore } from "@skein/db";
import type { AggregateRepository } from "./aggregate-repository.ts";
import type { Logger } from "./logger.ts";

const IN_FLIGHT = ["starting", "running", "waiting"];

/**
 * R2: after a restart no runtime handle survives, so every run left in flight ends
 * `interrupted` (its pending requests become not_resumable in the domain) and every session
 * still marked live is stopped. Returns the threads with queued runs, to be dispatched again.
 */
export async function recoverAfterRestart(
  store: EventStore,
  repo: AggregateRepository,
  log: Logger,
): Promise<ThreadId[]> {
  const { data } = await store.snapshot(async (q) => ({
    inFlight: await q.list("runs", { status: IN_FLIGHT }),
    queued: await q.list("runs", { status: "queued" }),
    sessions: await q.list("provider_sessions", {
      status: ["starting", "ready", "running", "waiting"],
    }),
  }));
  for (const row of data.inFlight) {
    const threadId = asId("thread", row.threadId ?? "");
    const runId = asId("run", row.id);
    await repo.execute({
      type: "RecoverInterruptedRun",
      data: { threadId, runId, reason: "Skein restarted while the run was in flight" },
    });
    log.info({ threadId, runId }, "in-flight run marked interrupted after restart");
  }
  for (const row of data.sessions) {
    await repo.execute({
      type: "ChangeProviderSessionStatus",
      data: {
        providerSessionId: asId("providerSession", row.id),
        status: "stopped",
        lastError: null,
      },
    });
  }
  return [...new Set(data.queued.map((row) => asId("thread", row.threadId ?? "")))];
}
