import { LeaseLostError } from "../recovery/lease-fence.ts";
import { reattach } from "../recovery/run-recovery.ts";
import { appendFailure } from "./run-failures.ts";
import { type BegunRun, RunLife } from "./run-life.ts";
import { message, pause, type ThreadScope } from "./runner-context.ts";
import { runTurn } from "./turn-attempt.ts";

/**
 * Lives a started run through the run-life workflow (packages/domain/src/run-life): carries out
 * each decision (a turn, a pause, a new runtime, the run's failure) and feeds what came of it
 * back as a fact. The decisions live in the workflow; this only talks to the runtime and store.
 */
export async function liveRun(scope: ThreadScope, begun: BegunRun): Promise<void> {
  const { ctx, threadId } = scope;
  const { run, active } = begun;
  const life = new RunLife({ ids: ctx.ids, policy: ctx.attempts });
  let input = begun.input;
  let next = life.feed({
    type: "RunBegan",
    data: { threadId, runId: run.id, provider: run.provider },
  });
  for (;;) {
    if (scope.lost()) next = life.feed({ type: "LeaseLost", data: {} });
    switch (next.type) {
      case "StartTurn":
        if (next.data.text !== null) {
          input = { ...input, text: next.data.text, context: null };
          active.restartWith = null;
        }
        next =
          (await runTurn(scope, life, begun, input, next.data)) ??
          life.feed({
            type: "TurnEnded",
            data: { halted: ctx.stopping, restartWith: active.restartWith },
          });
        break;
      case "WaitForRetry":
        await pause(ctx, next.data.delayMs);
        next = life.feed({ type: "RetryDue", data: { halted: ctx.stopping } });
        break;
      case "Reattach":
        // B2: a runtime that is alive, resuming the provider thread from its persisted ref
        // when the old one died.
        try {
          await reattach(scope, active, run, begun.settings);
          next = life.feed({ type: "Reattached", data: {} });
        } catch (error) {
          next = life.feed({ type: "ReattachFailed", data: { reason: message(error) } });
        }
        break;
      case "FailRun":
        await appendFailure(scope, next.data.command);
        if (scope.lost()) throw new LeaseLostError(threadId);
        return;
      case "EndRun":
        return;
      case "Abandon":
        throw new LeaseLostError(threadId);
      case "AbortLife":
        throw next.data.error;
      default:
        throw new Error(`run life: ${next.type} belongs to a turn, not between turns`);
    }
  }
}
