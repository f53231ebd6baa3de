import type { EventStore, ProjectionQuery } from "@skein/db";
import type {
  ContextTransferId,
  PendingRequestView,
  Project,
  ProjectId,
  ThreadId,
  ThreadShell,
} from "@skein/domain";
import { type ThreadDetailData, readThreadDetail } from "./detail.ts";
import { type ThreadGraphData, readThreadGraph } from "./graph.ts";
import { readPendingRequests } from "./pending-requests.ts";
import { readProjects } from "./projects.ts";
import { readShells } from "./shells.ts";
import { type TransferData, readTransfer } from "./transfer.ts";

export type { ThreadDetailData, ThreadGraphData, TransferData };

/** Every read is one consistent store snapshot; `snapshotSequence` is the cursor it reflects (S2). */
export type Snapshotted<T> = { snapshotSequence: number } & T;

export type ProjectList = Snapshotted<{ projects: Project[] }>;
export type ThreadShells = Snapshotted<{ threads: ThreadShell[] }>;
export type ThreadDetailView = Snapshotted<ThreadDetailData>;
export type ThreadGraphView = Snapshotted<ThreadGraphData>;
export type TransferView = Snapshotted<TransferData>;
export type PendingRequestList = Snapshotted<{ requests: PendingRequestView[] }>;

export type ReadModels = {
  projects(): Promise<ProjectList>;
  shells(): Promise<ThreadShells>;
  detail(threadId: ThreadId): Promise<ThreadDetailView>;
  graph(threadId: ThreadId): Promise<ThreadGraphView>;
  transfer(transferId: ContextTransferId): Promise<TransferView>;
  pendingRequests(threadId?: ThreadId): Promise<PendingRequestList>;
  threadExists(threadId: ThreadId): Promise<boolean>;
  projectExists(projectId: ProjectId): Promise<boolean>;
};

async function snapshotOf<T extends object>(
  store: EventStore,
  read: (query: ProjectionQuery) => Promise<T>,
): Promise<Snapshotted<T>> {
  const { snapshotSequence, data } = await store.snapshot(read);
  return { snapshotSequence, ...data };
}

async function exists(store: EventStore, table: "threads" | "projects", id: string) {
  return (await store.snapshot(async (q) => (await q.get(table, id)) !== undefined)).data;
}

export function createReadModels(store: EventStore): ReadModels {
  const read = <T extends object>(fn: (query: ProjectionQuery) => Promise<T>) =>
    snapshotOf(store, fn);
  return {
    projects: () => read(async (q) => ({ projects: await readProjects(q) })),
    shells: () => read(async (q) => ({ threads: await readShells(q) })),
    detail: (threadId) => read((q) => readThreadDetail(q, threadId)),
    graph: (threadId) => read((q) => readThreadGraph(q, threadId)),
    transfer: (transferId) => read((q) => readTransfer(q, transferId)),
    pendingRequests: (threadId) =>
      read(async (q) => ({ requests: await readPendingRequests(q, threadId) })),
    threadExists: (threadId) => exists(store, "threads", threadId),
    projectExists: (projectId) => exists(store, "projects", projectId),
  };
}
