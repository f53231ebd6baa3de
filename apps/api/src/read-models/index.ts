import type {
  PendingRequestList,
  ProjectList,
  ProviderSessionsView,
  Snapshotted,
  ThreadDetailView,
  ThreadGraphView,
  ThreadShells,
  TransferView,
} from "@skein/contract";
import type { EventStore, ProjectionQuery, SnapshotOptions } from "@skein/db";
import type { ContextTransferId, ProjectId, ThreadId } from "@skein/domain";
import {
  type DetailWindow,
  type DetailWindowInput,
  type ThreadDetailData,
  readThreadDetail,
} from "./detail.ts";
import { type ThreadGraphData, readThreadGraph } from "./graph.ts";
import { readPendingRequests } from "./pending-requests.ts";
import { readProjects } from "./projects.ts";
import { readProviderSessions } from "./provider-sessions.ts";
import { readShells, type ShellPageInput } from "./shells.ts";
import { type TransferData, readTransfer } from "./transfer.ts";

export type {
  DetailWindow,
  DetailWindowInput,
  ShellPageInput,
  ThreadDetailData,
  ThreadGraphData,
  TransferData,
};

/** The read side's answers, as the contract defines them (each one consistent snapshot, S2). */
export type {
  PendingRequestList,
  ProjectList,
  ProviderSessionsView,
  Snapshotted,
  ThreadDetailView,
  ThreadGraphView,
  ThreadShells,
  TransferView,
};

export type ReadModels = {
  projects(): Promise<ProjectList>;
  /**
   * One page of the thread list (B7); archived threads are left out unless `archived` asks for
   * them (and only them).
   */
  shells(page?: ShellPageInput): Promise<ThreadShells>;
  /** One window of the thread's runs (B7): the latest 50 unless `window` says otherwise. */
  detail(threadId: ThreadId, window?: DetailWindowInput): Promise<ThreadDetailView>;
  graph(threadId: ThreadId): Promise<ThreadGraphView>;
  transfer(transferId: ContextTransferId): Promise<TransferView>;
  pendingRequests(threadId?: ThreadId): Promise<PendingRequestList>;
  /** P4: the provider sessions hosting the thread's provider threads. */
  providerSessions(threadId: ThreadId): Promise<ProviderSessionsView>;
  threadExists(threadId: ThreadId): Promise<boolean>;
  projectExists(projectId: ProjectId): Promise<boolean>;
};

async function snapshotOf<T extends object>(
  store: EventStore,
  read: (query: ProjectionQuery) => Promise<T>,
  options?: SnapshotOptions,
): Promise<Snapshotted<T>> {
  const { snapshotSequence, data } = await store.snapshot(read, options);
  return { snapshotSequence, ...data };
}

// Issue 27: the cold read models go through the generated Prisma client. The hot ones (the
// sidebar page and search, thread detail, existence checks on every command) stay on the
// driver's prepared statements: Prisma costs them several times over (packages/db bench,
// prisma_*_ratio rows).
const PRISMA: SnapshotOptions = { through: "prisma" };

async function exists(store: EventStore, table: "threads" | "projects", id: string) {
  return (await store.snapshot(async (q) => (await q.get(table, id)) !== undefined)).data;
}

export function createReadModels(store: EventStore): ReadModels {
  const read = <T extends object>(
    fn: (query: ProjectionQuery) => Promise<T>,
    options?: SnapshotOptions,
  ) => snapshotOf(store, fn, options);
  return {
    projects: () => read(async (q) => ({ projects: await readProjects(q) }), PRISMA),
    shells: (page = {}) => read((q) => readShells(q, page)),
    detail: (threadId, window) => read((q) => readThreadDetail(q, threadId, window)),
    graph: (threadId) => read((q) => readThreadGraph(q, threadId)),
    transfer: (transferId) => read((q) => readTransfer(q, transferId)),
    pendingRequests: (threadId) =>
      read(async (q) => ({ requests: await readPendingRequests(q, threadId) })),
    providerSessions: (threadId) => read((q) => readProviderSessions(q, threadId)),
    threadExists: (threadId) => exists(store, "threads", threadId),
    projectExists: (projectId) => exists(store, "projects", projectId),
  };
}
