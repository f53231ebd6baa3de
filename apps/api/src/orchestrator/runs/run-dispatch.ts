import type { Run } from "@skein/domain";
import { compactsNatively } from "../transfers/skein-compaction.ts";
import { failRun } from "./run-failures.ts";
import { liveRun } from "./run-life-runner.ts";
import type { ThreadScope } from "./runner-context.ts";
import { prepareRun } from "./run-prepare.ts";

/** How a run's dispatch ended: its provider turn started, or it failed before (with why). */
export type Dispatch =
  | { started: true }
  | { started: false; failure: string }
  /** B20: withdrawn or moved back while being dispatched; the queue moved on (queue-head.ts). */
  | { started: false; overtaken: true };

/**
 * Executes one queued run: prepares it (folder, baseline, its recorded start, the first turn's
 * input), lives it through the run-life workflow, and captures what it changed. A run that
 * cannot start fails once, and the drain is told why.
 */
export async function dispatchRun(scope: ThreadScope, run: Run): Promise<Dispatch> {
  const { ctx, threadId } = scope;
  // Issue 25 item 5: a provider that cannot compact natively gets Skein's compaction instead.
  const capabilities = ctx.sessions.adapter(run.provider)?.capabilities ?? null;
  if (run.compact && ctx.skeinCompaction && !compactsNatively(capabilities)) {
    const failure = await ctx.skeinCompaction(run, scope.appends);
    if (failure === null) return { started: true };
    ctx.log.warn({ threadId, runId: run.id, failure }, "compaction refused");
    await failRun(scope, run.id, failure);
    return { started: false, failure };
  }
  const begun = await prepareRun(scope, run);
  if ("overtaken" in begun) return { started: false, overtaken: true };
  if ("refused" in begun) {
    const failure = begun.refused;
    ctx.log.warn({ threadId, runId: run.id, failure }, "run failed before it started");
    await failRun(scope, run.id, failure);
    return { started: false, failure };
  }
  await liveRun(scope, begun);
  const ended = (await ctx.repo.thread(threadId)).runs.get(run.id);
  if (ended) await ctx.checkpoints.captureRun(threadId, ended, begun.cwd);
  return { started: true };
}
