import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import type { IdSource, Run, ThreadId, ThreadState } from "@skein/domain";
import { type CheckpointStore, createCheckpointStore } from "../checkpoints/index.ts";
import type { AggregateRepository } from "./aggregate-repository.ts";
import type { Logger } from "./logger.ts";

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Captures a checkpoint of the workspace at the end of every root run (E6, E7) and opens the git
 * plumbing per workspace. Non-git workspaces get a shadow git dir under Skein's data dir, keyed
 * by the workspace path, so nothing is ever written into the user's folder.
 */
export class CheckpointService {
  private readonly stores = new Map<string, Promise<CheckpointStore>>();

  constructor(
    private readonly repo: AggregateRepository,
    private readonly ids: IdSource,
    private readonly dataDir: string,
    private readonly log: Logger,
    /** Off: runs end without a workspace checkpoint (e.g. a huge workspace; seeding benches). */
    private readonly captureEnabled = true,
  ) {}

  storeFor(cwd: string): Promise<CheckpointStore> {
    let store = this.stores.get(cwd);
    if (!store) {
      const key = createHash("sha256").update(path.resolve(cwd)).digest("hex").slice(0, 16);
      store = createCheckpointStore({
        workspaceRoot: cwd,
        shadowDir: path.join(this.dataDir, "checkpoints", key),
      });
      // A workspace that cannot hold checkpoints (e.g. it contains Skein's data dir) fails the
      // same way every time: remember that for a while instead of spawning git on every fork.
      store.catch(() => {
        setTimeout(() => this.stores.delete(cwd), 60_000).unref();
      });
      this.stores.set(cwd, store);
    }
    return store;
  }

  /** Records the run's root scope and a checkpoint; capture failures become status `error`. */
  async captureRun(threadId: ThreadId, run: Run, cwd: string): Promise<void> {
    if (!this.captureEnabled || !run.rootNodeId || !existsSync(cwd)) return;
    const state = await this.repo.thread(threadId);
    const scopeId = this.ids.next("checkpointScope");
    await this.repo.execute({
      type: "RecordCheckpointScope",
      data: { threadId, scopeId, kind: "root_run", nodeId: run.rootNodeId, runId: run.id, cwd },
    });
    const checkpointId = this.ids.next("checkpoint");
    try {
      const store = await this.storeFor(cwd);
      const parentRef = lastRootCheckpointRef(state);
      const captured = await store.capture({
        threadId,
        runId: run.id,
        ...(parentRef ? { parentRef } : {}),
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

export function lastRootCheckpointRef(state: ThreadState): string | undefined {
  const id = state.lastRootCheckpointId;
  const checkpoint = id ? state.checkpoints.get(id) : undefined;
  return checkpoint?.status === "ready" ? checkpoint.ref : undefined;
}
