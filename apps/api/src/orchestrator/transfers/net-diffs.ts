import type { ProviderKind, ThreadState } from "@skein/domain";
import { codeStateRequests, type NetDiff, type TransferInputs } from "@skein/transfer";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { Logger } from "../logger.ts";

type Loaded = { state: ThreadState; inputs: TransferInputs };

/**
 * Adds to `loaded` the net diffs a handoff on `provider` may show (reloading it when it waited for
 * a capture); never throws: where none can be read, the runs' own file changes stand in.
 */
export type NetDiffReader = (
  loaded: Loaded,
  provider: ProviderKind,
  reload: () => Promise<Loaded>,
) => Promise<Loaded>;

/**
 * Issue 25 item 2: the state of the work a handoff carries is git's net diff between the
 * checkpoints it spans (a checkpoint snapshots the working tree, so uncommitted changes are in
 * it). A run start reads it once its workflow has resolved a handoff (`LoadCodeState`); the
 * preview reads it before building one.
 */
export function netDiffReader(checkpoints: CheckpointService, log: Logger): NetDiffReader {
  return async (loaded, provider, reload) => {
    if (codeStateRequests(loaded.state, loaded.inputs, provider).length === 0) return loaded;
    // A run that just ended has its checkpoint captured an instant later: wait for it (bounded).
    const capturing = loaded.state.latestStableRunId !== loaded.state.latestCompletedRunId;
    await checkpoints.settleLatestRun(loaded.state);
    const { state, inputs } = capturing ? await reload() : loaded;
    const requests = codeStateRequests(state, inputs, provider);
    const read: NetDiff[] = [];
    for (const { source, base } of requests) {
      const cwd = inputs.threads.get(source.threadId)?.checkpointScopes.get(source.scopeId)?.cwd;
      if (!cwd) continue;
      try {
        const store = await checkpoints.storeFor(cwd);
        // No base: the commit the thread's checkpoints started from, so uncommitted work counts.
        const files = await store.diff(base?.ref ?? null, source.ref);
        read.push({
          sourceCheckpointId: source.id,
          baseCheckpointId: base?.id ?? null,
          roots: [...new Set([cwd, store.workspaceRoot])],
          files: files.map((f) => ({
            fileName: f.path,
            additions: f.binary ? null : f.additions,
            deletions: f.binary ? null : f.deletions,
            patch: f.patch,
          })),
        });
      } catch (error) {
        log.warn(
          {
            checkpointId: source.id,
            error: error instanceof Error ? error.message : String(error),
          },
          "net diff for a handoff could not be read; the runs' file changes stand in",
        );
      }
    }
    return { state, inputs: { ...inputs, netDiffs: read } };
  };
}
