import type { SkeinNotifications, SkeinServices } from "@skein/contract";
import packageJson from "../package.json" with { type: "json" };
import type { ApiContext } from "./context.ts";
import { storeErrorToTRPC } from "./errors.ts";
import { pastReads } from "./read-models/past-reads.ts";
import { readRawFrames } from "./read-models/raw-frames.ts";
import { exportThread } from "./read-models/thread-export.ts";
import { readThreadTimeline } from "./read-models/timeline.ts";
import { readUsageSummary } from "./read-models/usage-summary.ts";
import { watchForkOverlaps } from "./subscriptions/fork-overlaps.ts";
import { watchRaw } from "./subscriptions/raw-stream.ts";
import {
  watchGraph,
  watchPendingRequests,
  watchProviderSessions,
} from "./subscriptions/projection-watches.ts";
import { watchDetail, watchEvents, watchShells } from "./subscriptions/watches.ts";
import { usableRealFolder } from "./workspace/folder-check.ts";

/**
 * The API's implementation of the contract's ports: the orchestrator is the command side, the
 * read models and past reads the read side, the subscriptions the watches. Built once per server;
 * every call shares it.
 */
export function createSkeinServices(
  ctx: ApiContext,
  /** Skein's own folders (its data dir), which no workspace may be or lie inside (B4). */
  dataDirs: readonly string[],
  /** B20: Web Push, where the host runs a notifier. */
  notifications: SkeinNotifications | null = null,
): SkeinServices {
  const { store, readModels, rawLog } = ctx;
  return {
    version: packageJson.version,
    commands: ctx.orchestrator,
    reads: {
      headSequence: () => store.headSequence(),
      projects: () => readModels.projects(),
      shells: (page) => readModels.shells(page),
      detail: (threadId, window) => readModels.detail(threadId, window),
      graph: (threadId) => readModels.graph(threadId),
      transfer: (transferId) => readModels.transfer(transferId),
      pendingRequests: (threadId) => readModels.pendingRequests(threadId),
      providerSessions: (threadId) => readModels.providerSessions(threadId),
      threadExists: (threadId) => readModels.threadExists(threadId),
      projectExists: (projectId) => readModels.projectExists(projectId),
      timeline: (threadId) => readThreadTimeline(store, threadId),
      exportThread: (threadId) => exportThread(store, threadId),
      rawFrames: (range) => readRawFrames(store, rawLog, range),
      // The usage panel (B20) is an admin view read on demand: through Prisma, as project.list.
      usage: async (days) =>
        (await store.snapshot((q) => readUsageSummary(q, days, new Date()), { through: "prisma" }))
          .data,
    },
    pastReads: {
      shells: (atSequence, page) => pastReads.shells(store, atSequence, page),
      detail: (threadId, atSequence, window) =>
        pastReads.detail(store, threadId, atSequence, window),
      graph: (threadId, atSequence) => pastReads.graph(store, threadId, atSequence),
    },
    watches: {
      shells: (input, signal) => watchShells(ctx, input, signal),
      detail: (input, signal) => watchDetail(ctx, input, signal),
      events: (input, signal) => watchEvents(ctx, input, signal),
      graph: (input, signal) => watchGraph(ctx, input, signal),
      pendingRequests: (input, signal) => watchPendingRequests(ctx, input, signal),
      providerSessions: (input, signal) => watchProviderSessions(ctx, input, signal),
      raw: (input, signal) => watchRaw(ctx, input, signal),
      forkOverlaps: (input, signal) => watchForkOverlaps(ctx, input, signal),
    },
    workspaces: {
      assertUsable: (workspaceRoot) => usableRealFolder(workspaceRoot, dataDirs),
    },
    notifications,
    mapError: storeErrorToTRPC,
  };
}
