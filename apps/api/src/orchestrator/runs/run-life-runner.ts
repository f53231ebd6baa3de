import type { Run, RuntimeRequestId, UsageLimitHit } from "@skein/domain";
import {
  type AppToolHandler,
  type ProviderFailure,
  providerFailureOf,
  type ThreadSettings,
  type TurnHandle,
  type TurnInput,
} from "@skein/domain/provider";
import {
  decide,
  evolve,
  failureInWords,
  initialRunLifeState,
  type RunLifeInput,
  type RunLifeMeta,
  type RunLifeOutput,
  type StartTurn,
} from "@skein/domain/run-life";
import { LeaseLostError, untilAborted } from "../recovery/lease-fence.ts";
import { reattach } from "../recovery/run-recovery.ts";
import type { ActiveTurn } from "../runtime/active-turns.ts";
import type { LiveRequest } from "../runtime/live-requests.ts";
import { untilIdle } from "./idle-watchdog.ts";
import { ModelReachWatch } from "./model-reach.ts";
import { message, type ThreadScope } from "./runner-context.ts";
import { SubagentThreads } from "./subagent-threads.ts";
import { TurnConsumer } from "./turn-consumer.ts";

/** A run whose start is recorded, on the runtime and provider thread it starts on. */
export type BegunRun = {
  run: Run;
  active: ActiveTurn;
  input: TurnInput;
  settings: ThreadSettings;
  onAppToolCall: AppToolHandler | undefined;
};

/** Feeds one fact to a run's run-life workflow and says what it decided. */
type Feed = (fact: RunLifeInput) => RunLifeOutput;

/** The run-life workflow for one run: its state, held here, and the one way facts get into it. */
function runLife(meta: RunLifeMeta): Feed {
  let state = initialRunLifeState();
  return (fact) => {
    const output = decide(fact, state, meta);
    state = evolve(evolve(state, fact), output);
    return output;
  };
}

/**
 * Lives a started run through the run-life workflow (packages/domain/src/run-life): carries out
 * each decision (a turn, a pause, a new runtime, the run's failure) and feeds what came of it
 * back as a fact. The decisions live in the workflow; this only talks to the runtime and store.
 */
export async function liveRun(scope: ThreadScope, begun: BegunRun): Promise<void> {
  const { ctx, threadId } = scope;
  const { run, active } = begun;
  const feed = runLife({ ids: ctx.ids, policy: ctx.attempts });
  let input = begun.input;
  let next = feed({
    type: "RunBegan",
    data: { threadId, runId: run.id, provider: run.provider },
  });
  for (;;) {
    if (scope.lost()) next = feed({ type: "LeaseLost", data: {} });
    switch (next.type) {
      case "StartTurn":
        if (next.data.text !== null) {
          input = { ...input, text: next.data.text, context: null };
          active.restartWith = null;
        }
        next =
          (await runTurn(scope, feed, begun, input, next.data)) ??
          feed({
            type: "TurnEnded",
            data: { halted: ctx.stopping, restartWith: active.restartWith },
          });
        break;
      case "WaitForRetry":
        await scope.pause(next.data.delayMs);
        next = feed({ type: "RetryDue", data: { halted: ctx.stopping } });
        break;
      case "Reattach":
        // B2: a runtime that is alive, resuming the provider thread from its persisted ref
        // when the old one died.
        try {
          await reattach(scope, active, run, begun.settings);
          next = feed({ type: "Reattached", data: {} });
        } catch (error) {
          next = feed({ type: "ReattachFailed", data: { reason: message(error) } });
        }
        break;
      case "FailRun":
        await scope.fail(next.data.command);
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

/**
 * One provider turn of a run: starts it natively, feeds the run-life workflow what happens to
 * it (started, stalled, failed) and carries out what it decides within the turn, while the
 * turn's events are recorded. Resolves with the workflow's decision when the provider refused
 * the turn, or null once the turn's end is recorded.
 */
async function runTurn(
  scope: ThreadScope,
  feed: Feed,
  begun: BegunRun,
  input: TurnInput,
  start: StartTurn["data"],
): Promise<RunLifeOutput | null> {
  const { ctx, threadId, appends } = scope;
  const { active, settings, onAppToolCall } = begun;
  const runId = active.runId;
  const { session } = active;
  ctx.sessions.begin(session);
  try {
    const opened = await openTurn(active, input, {
      settings,
      ...(onAppToolCall ? { onAppToolCall } : {}),
    });
    if ("refused" in opened) {
      return feed({ type: "TurnRefused", data: { failure: opened.refused } });
    }
    // Steering may arrive as soon as the turn exists natively; its command queues behind this
    // one on the thread's stream, so the turn is recorded first either way.
    active.nativeTurnRef = opened.nativeTurnRef;
    active.started = true;
    const recorded = feed({
      type: "TurnStarted",
      data: { nativeTurnRef: opened.nativeTurnRef, interruptRequested: active.interruptRequested },
    });
    if (recorded.type !== "RecordTurnStart") throw unexpected(recorded);
    await appends.execute(recorded.data.command);
    if (recorded.data.interrupt) void ctx.turns.interruptNative(active);
    const stalled = (reason: "idle" | "model_unreachable") => {
      const stop = feed({ type: "TurnStalled", data: { reason } });
      if (stop.type !== "InterruptTurn") throw unexpected(stop);
      return ctx.turns.interruptNative(active);
    };
    const onRequest = (requestId: RuntimeRequestId, live: LiveRequest | null) => {
      if (live) ctx.requests.remember(requestId, live);
      else ctx.requests.forget(requestId);
    };
    const stopReason = () =>
      ctx.stopping ? "Skein was stopped while the run was in flight" : null;
    const children = new SubagentThreads({
      repo: ctx.repo,
      appends,
      ids: ctx.ids,
      log: ctx.log,
      registry: ctx.subagents,
      parentThreadId: threadId,
      provider: session.provider,
      providerSessionId: session.providerSessionId,
      onRequest,
      stopReason,
      interruptNative: (ref, turnRef) => session.handle.interruptTurn(ref, turnRef),
      captureChild: (spawnedBy) =>
        ctx.checkpoints.captureChild(threadId, runId, spawnedBy, settings.cwd),
    });
    const reach = new ModelReachWatch({
      provider: session.provider,
      boundMs: ctx.attempts.unreachableMs,
      note: (progress) =>
        appends.execute({ type: "NoteRunProgress", data: { threadId, runId, progress } }).then(
          () => undefined,
          (error: unknown) => ctx.log.warn({ runId, error: message(error) }, "notice lost"),
        ),
      giveUp: () => stalled("model_unreachable"),
    });
    let words: string | null = null;
    let usageLimit: UsageLimitHit | undefined;
    const failed = async (failure: ProviderFailure) => {
      const decided = feed({
        type: "TurnFailed",
        data: {
          failure,
          runtimeAlive: active.session.handle.isAlive(),
          modelUnreachable: reach.unreachable,
          halted: scope.halted(),
          interruptRequested: active.interruptRequested,
          steered: active.restartWith !== null,
        },
      });
      if (decided.type === "ScheduleRetry") {
        // Recorded before the failed turn's end, so the run does not end with it (B2).
        await appends.execute(decided.data.command);
        const { reason } = decided.data.command.data;
        ctx.log.warn({ threadId, runId, reason, failure }, "new attempt");
      } else if (decided.type === "DescribeFailure") {
        usageLimit = decided.data.usageLimit;
      } else throw unexpected(decided);
      words = decided.data.words;
    };
    const consumer = new TurnConsumer(
      appends,
      ctx.ids,
      threadId,
      start.providerTurnId,
      session.providerSessionId,
      onRequest,
      stopReason,
      {
        before: failed,
        describe: (failure) => words ?? failureInWords(session.provider, failure, start.attempt),
        usageLimit: () => usageLimit,
      },
      children,
    );
    const events = untilIdle(
      reach.watch(opened.turn.events),
      ctx.attempts.idleTimeoutMs,
      async () => (await ctx.repo.thread(threadId)).runs.get(runId)?.status === "waiting",
      () => stalled("idle"),
    );
    try {
      await consumer.consume(untilAborted(events, active.abandon.signal, threadId));
    } catch (error) {
      // The turn's events could not be recorded (the store went away): the provider's turn
      // must not go on working unrecorded.
      if (active.started && !(error instanceof LeaseLostError)) {
        await ctx.turns.interruptNative(active).catch(() => undefined);
      }
      throw error;
    }
    return null;
  } finally {
    // The lease may be lost before the turn started natively, or found lost by the fence
    // before the renewal timer reports it: either way the native turn must stop.
    if (scope.lost() && active.started) await ctx.turns.interruptForLoss(active);
    ctx.sessions.end(session);
    active.started = false;
  }
}

/** The turn started natively, or the provider refused it (its runtime died, or the request). */
async function openTurn(
  active: ActiveTurn,
  input: TurnInput,
  options: Parameters<ActiveTurn["session"]["handle"]["startTurn"]>[2],
): Promise<{ turn: TurnHandle; nativeTurnRef: string | null } | { refused: ProviderFailure }> {
  try {
    const turn = active.session.handle.startTurn(active.nativeThreadRef, input, options);
    const { nativeTurnRef } = await turn.started;
    return { turn, nativeTurnRef };
  } catch (error) {
    return { refused: providerFailureOf(error) };
  }
}

const unexpected = (output: RunLifeOutput) =>
  output.type === "AbortLife"
    ? output.data.error
    : new Error(`run life: unexpected ${output.type}`);
