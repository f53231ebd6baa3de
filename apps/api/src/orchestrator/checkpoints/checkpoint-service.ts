import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { assertNotSwapped, realOrResolved } from "../../workspace/held-path.ts";
import type {
  CheckpointScopeId,
  IdSource,
  NodeId,
  Run,
  RunId,
  ThreadId,
  ThreadState,
} from "@skein/domain";
import { type CheckpointStore, checkpointRef, createCheckpointStore } from "@skein/checkpoints";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";
import { netChangeOf, sumOf } from "./net-change.ts";

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** How long a fork or bring-back waits for a just-finished run's checkpoint at most. */
const CAPTURE_WAIT_MS = 5_000;
/** A run that finished longer ago than this has no capture left to wait for. */
const RECENT_RUN_MS = 60_000;
/** Remembered settled captures (per process; older runs are judged by their recorded state). */
const SETTLED_MEMORY = 1_000;

/**
 * Captures a checkpoint of the workspace at the end of every root run (E6, E7) and opens the git
 * plumbing per workspace. Non-git workspaces get a shadow git dir under Skein's checkpoints dir
 * (in its data dir unless configured), keyed by the workspace's real path, so nothing is ever
 * written into the user's folder and every instance sharing that dir reads the same refs.
 */
export class CheckpointService {
  private readonly stores = new Map<string, Promise<CheckpointStore>>();
  /** Runs whose capture ended (recorded, failed or skipped), oldest first. */
  private readonly settled = new Set<RunId>();
  private readonly waiters = new Map<RunId, (() => void)[]>();
  /** Baselines whose folder is still being read, by thread. */
  private readonly baselines = new Map<ThreadId, Promise<void>>();

  constructor(
    private readonly repo: AggregateRepository,
    private readonly ids: IdSource,
    /** One git dir per plain folder under here, by its real path (shared across instances). */
    private readonly checkpointsDir: string,
    private readonly log: Logger,
    /** Off: runs end without a workspace checkpoint (e.g. a huge workspace; seeding benches). */
    private readonly captureEnabled = true,
  ) {}

  /**
   * The checkpoint store of a workspace, keyed by its real path (issue 35): a folder swapped for
   * a symbolic link is refused before any effect, and never reaches another folder's store.
   */
  async storeFor(cwd: string): Promise<CheckpointStore> {
    await assertNotSwapped(cwd);
    const real = await realOrResolved(cwd);
    let store = this.stores.get(real);
    if (!store) {
      const key = createHash("sha256").update(real).digest("hex").slice(0, 16);
      store = createCheckpointStore({
        workspaceRoot: real,
        shadowDir: path.join(this.checkpointsDir, key),
      });
      // A workspace that cannot hold checkpoints (e.g. it contains Skein's data dir) fails the
      // same way every time: remember that for a while instead of spawning git on every fork.
      store.catch(() => {
        setTimeout(() => this.stores.delete(real), 60_000).unref();
      });
      this.stores.set(real, store);
    }
    return store;
  }

  /**
   * Snapshots the workspace before a thread's first run (no ready checkpoint yet), so the first
   * run's checkpoint lists what that run changed, not every file that already existed or was
   * uncommitted. Best effort: without a baseline the first checkpoint diffs against HEAD.
   * Resolves once the folder has been read (the run's turn may start then, issue 34). The
   * reading is staged, and its commit written when the baseline is first wanted (`baselineOf`,
   * after the run's turn), so no git process runs beside the turn. Never rejects.
   */
  captureBaseline(threadId: ThreadId, state: ThreadState, cwd: string): Promise<void> {
    if (!this.captureEnabled || lastRootCheckpointRef(state) || !existsSync(cwd)) {
      return Promise.resolve();
    }
    const read = (async () => {
      try {
        const store = await this.storeFor(cwd);
        // Only an earlier run of the thread can have left a baseline: a thread's first run
        // spares the look (a git process on the way to its first turn). One an earlier run left
        // staged (cut short by a restart) is written by stageCapture instead of read anew.
        const earlier = state.runs.size > 1;
        if (earlier && (await store.status(baselineRef(threadId))) === "ready") return;
        await store.stageCapture({ threadId, runId: BASELINE_RUN });
      } catch (error) {
        this.log.warn({ threadId, error: message(error) }, "checkpoint baseline capture failed");
      }
    })();
    this.baselines.set(threadId, read);
    void read.then(() => {
      if (this.baselines.get(threadId) === read) this.baselines.delete(threadId);
    });
    return read;
  }

  /**
   * The baseline ref when the thread has one in this workspace's store, else undefined; a
   * baseline whose folder is still being read is waited for, and a staged one is written.
   */
  async baselineOf(store: CheckpointStore, threadId: ThreadId): Promise<string | undefined> {
    return (await this.resolvedBaseline(store, threadId))?.ref;
  }

  /**
   * `baselineOf`, with the tree the baseline holds when finding the ref read it (one git read
   * answers both); a baseline written just now comes without it.
   */
  private async resolvedBaseline(
    store: CheckpointStore,
    threadId: ThreadId,
  ): Promise<{ ref: string; tree?: string } | undefined> {
    await this.baselines.get(threadId);
    const ref = baselineRef(threadId);
    const written = await store
      .completeStaged({ threadId, runId: BASELINE_RUN })
      .catch((error: unknown) => {
        this.log.warn({ threadId, error: message(error) }, "checkpoint baseline capture failed");
        return false;
      });
    if (written) return { ref };
    const tree = await store.checkpointTree(ref).catch(() => undefined);
    return tree === undefined ? undefined : { ref, tree };
  }

  /** Records the run's root scope and a checkpoint; capture failures become status `error`. */
  async captureRun(threadId: ThreadId, run: Run, cwd: string): Promise<void> {
    try {
      await this.capture(threadId, run, cwd);
    } finally {
      this.markSettled(run.id);
    }
  }

  /**
   * T2 makes `latest_stable` the latest completed run *with a checkpoint*, and a run's checkpoint
   * is captured just after it finishes. A fork or bring-back sent in that instant would silently
   * take the run before; instead it waits (briefly, bounded) for the capture this process is
   * about to record. Runs captured elsewhere or long ago are never waited for.
   */
  async settleLatestRun(state: ThreadState, now: number = Date.now()): Promise<void> {
    const runId = state.latestCompletedRunId;
    if (!this.captureEnabled || runId === null || runId === state.latestStableRunId) return;
    if (this.settled.has(runId)) return;
    const run = state.runs.get(runId);
    const finishedAt = run?.completedAt ? Date.parse(run.completedAt) : Number.NaN;
    if (!(now - finishedAt < RECENT_RUN_MS)) return;
    for (const checkpoint of state.checkpoints.values()) {
      if (checkpoint.runId === runId && checkpoint.appRunOrdinal !== null) return;
    }
    await new Promise<void>((resolve) => {
      const list = this.waiters.get(runId) ?? [];
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        list.splice(list.indexOf(wake), 1);
        if (list.length === 0) this.waiters.delete(runId);
        resolve();
      }, CAPTURE_WAIT_MS);
      list.push(wake);
      this.waiters.set(runId, list);
    });
  }

  private markSettled(runId: RunId): void {
    this.settled.add(runId);
    if (this.settled.size > SETTLED_MEMORY) {
      const oldest = this.settled.values().next().value;
      if (oldest !== undefined) this.settled.delete(oldest);
    }
    for (const wake of this.waiters.get(runId) ?? []) wake();
    this.waiters.delete(runId);
  }

  private async rootScope(
    threadId: ThreadId,
    state: ThreadState,
    run: Run,
    cwd: string,
  ): Promise<CheckpointScopeId> {
    const known = rootScopeOf(state, run.id);
    if (known) return known;
    const scopeId = this.ids.next("checkpointScope");
    await this.repo.execute({
      type: "RecordCheckpointScope",
      data: { threadId, scopeId, kind: "root_run", nodeId: run.rootNodeId!, runId: run.id, cwd },
    });
    return scopeId;
  }

  /**
   * E6/E7: when a sub-agent (or a delegated child) of a run ends, the workspace is captured in a
   * child scope nested under the run's root scope, at the node that spawned it. The child
   * checkpoint lists what changed since the thread's last conversation checkpoint, never
   * advances the run count, and can be restored alone (code only). Best effort: a failed
   * capture is logged, and the run's own checkpoint is still taken when it ends.
   */
  async captureChild(
    threadId: ThreadId,
    runId: RunId,
    nodeId: NodeId,
    cwd: string,
    kind: "subagent" | "tool" = "subagent",
  ): Promise<void> {
    if (!this.captureEnabled || !existsSync(cwd)) return;
    try {
      const state = await this.repo.thread(threadId);
      const run = state.runs.get(runId);
      if (!run?.rootNodeId || !state.nodes.has(nodeId)) return;
      const parentScopeId = await this.rootScope(threadId, state, run, cwd);
      const scopeId = this.ids.next("checkpointScope");
      await this.repo.execute({
        type: "RecordCheckpointScope",
        data: { threadId, scopeId, kind, nodeId, runId, parentScopeId, cwd },
      });
      const store = await this.storeFor(cwd);
      const parentRef = lastRootCheckpointRef(state) ?? (await this.baselineOf(store, threadId));
      // The scope id is the ref's segment: one run may hold several child checkpoints.
      const captured = await store.capture({
        threadId,
        runId: scopeId,
        ...(parentRef ? { parentRef } : {}),
      });
      await this.repo.execute({
        type: "RecordCheckpoint",
        data: {
          threadId,
          checkpointId: this.ids.next("checkpoint"),
          scopeId,
          ref: captured.ref,
          status: "ready",
          files: captured.files.map((f) => ({
            path: f.path,
            additions: f.additions,
            deletions: f.deletions,
            status: f.status,
          })),
        },
      });
    } catch (error) {
      this.log.warn({ threadId, runId, error: message(error) }, "child checkpoint capture failed");
    }
  }

  private async capture(threadId: ThreadId, run: Run, cwd: string): Promise<void> {
    if (!this.captureEnabled || !run.rootNodeId || !existsSync(cwd)) return;
    const state = await this.repo.thread(threadId);
    const scopeId = await this.rootScope(threadId, state, run, cwd);
    const checkpointId = this.ids.next("checkpoint");
    try {
      const store = await this.storeFor(cwd);
      const baseline = await this.resolvedBaseline(store, threadId);
      const parentRef = lastRootCheckpointRef(state) ?? baseline?.ref;
      const captured = await store.capture({
        threadId,
        runId: run.id,
        ...(parentRef ? { parentRef } : {}),
      });
      // The first checkpoint's files are already the whole change; later ones count it anew.
      const netChange =
        parentRef === baseline?.ref
          ? sumOf(captured.files)
          : await netChangeOf(store, captured, baseline).catch((error: unknown) => {
              this.log.warn({ threadId, error: message(error) }, "net change count failed");
              return undefined;
            });
      await this.repo.execute({
        type: "RecordCheckpoint",
        data: {
          threadId,
          checkpointId,
          scopeId,
          ref: captured.ref,
          status: "ready",
          files: captured.files.map((f) => ({
            path: f.path,
            additions: f.additions,
            deletions: f.deletions,
            status: f.status,
          })),
          ...(netChange ? { netChange } : {}),
        },
      });
    } catch (error) {
      this.log.warn(
        { threadId, runId: run.id, error: message(error) },
        "checkpoint capture failed",
      );
      await this.repo.execute({
        type: "RecordCheckpoint",
        data: {
          threadId,
          checkpointId,
          scopeId,
          ref: `capture-failed:${run.id}`,
          status: "error",
          files: [],
        },
      });
    }
  }
}

/** The run's root scope: recorded by a child capture already, or now (E6). */
function rootScopeOf(state: ThreadState, runId: RunId): CheckpointScopeId | undefined {
  for (const scope of state.checkpointScopes.values()) {
    if (scope.runId === runId && scope.kind === "root_run") return scope.id;
  }
  return undefined;
}

/** A run-id segment no run gets (run ids start with "run_"): the thread's pre-run snapshot. */
const BASELINE_RUN = "baseline";

export function baselineRef(threadId: string): string {
  return checkpointRef(threadId, BASELINE_RUN);
}

export function lastRootCheckpointRef(state: ThreadState): string | undefined {
  const id = state.lastRootCheckpointId;
  const checkpoint = id ? state.checkpoints.get(id) : undefined;
  return checkpoint?.status === "ready" ? checkpoint.ref : undefined;
}
