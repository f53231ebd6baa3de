import type { CommandData } from "../commands.ts";
import type { ProviderThread } from "../entities/provider-thread.ts";
import { InvalidTransitionError, PreconditionFailedError, ValidationError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { ProviderThreadPatch } from "../events/provider-events.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { assertTransition } from "../transitions.ts";
import { requireAbsent, requireEntity, requireThread } from "./guards.ts";
import { usageLimitReached } from "./usage-limit.ts";

export function recordProviderThread(
  d: CommandData<"RecordProviderThread">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  requireAbsent(s.providerThreads, d.providerThreadId, "ProviderThread");
  if (d.ownerNodeId) requireEntity(s.nodes, d.ownerNodeId, "ExecutionNode");
  if (d.childThreadId && !d.ownerNodeId) {
    throw new ValidationError("only a provider thread nested under a node has a child thread", [
      { path: "childThreadId", message: "needs ownerNodeId" },
    ]);
  }
  const providerThread: ProviderThread = {
    id: d.providerThreadId,
    provider: d.provider,
    providerSessionId: d.providerSessionId ?? null,
    // A provider thread nested under a node (native subagent) is addressed through that node.
    appThreadId: d.ownerNodeId ? null : thread.id,
    ownerNodeId: d.ownerNodeId ?? null,
    ...(d.childThreadId ? { childThreadId: d.childThreadId } : {}),
    nativeThreadRef: d.nativeThreadRef ?? null,
    nativeConversationHeadRef: d.nativeConversationHeadRef ?? null,
    status: d.status ?? "not_loaded",
    firstRunOrdinal: null,
    lastRunOrdinal: null,
    handoffIds: [],
    forkedFrom: d.forkedFrom ?? null,
    createdAt: meta.at,
    updatedAt: meta.at,
  };
  return [{ type: "ProviderThreadRecorded", data: { providerThread, at: meta.at } }];
}

/** Patch refs, status and run coverage; the same status again is simply not a change. */
export function updateProviderThread(
  d: CommandData<"UpdateProviderThread">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const current = requireEntity(s.providerThreads, d.providerThreadId, "ProviderThread");
  const changes: ProviderThreadPatch = {};
  if (d.status !== undefined && d.status !== current.status) {
    assertTransition("ProviderThread", current.status, d.status, current.id);
    changes.status = d.status;
  }
  if (d.providerSessionId !== undefined) changes.providerSessionId = d.providerSessionId;
  if (d.nativeThreadRef !== undefined) changes.nativeThreadRef = d.nativeThreadRef;
  if (d.nativeConversationHeadRef !== undefined) {
    changes.nativeConversationHeadRef = d.nativeConversationHeadRef;
  }
  if (d.firstRunOrdinal !== undefined) changes.firstRunOrdinal = d.firstRunOrdinal;
  if (d.lastRunOrdinal !== undefined) changes.lastRunOrdinal = d.lastRunOrdinal;
  if (d.childThreadId !== undefined && d.childThreadId !== current.childThreadId) {
    if (current.ownerNodeId === null) {
      throw new ValidationError("only a provider thread nested under a node has a child thread", [
        { path: "childThreadId", message: "the provider thread is not nested under a node" },
      ]);
    }
    changes.childThreadId = d.childThreadId;
  }
  const first = changes.firstRunOrdinal ?? current.firstRunOrdinal;
  const last = changes.lastRunOrdinal ?? current.lastRunOrdinal;
  if (first !== null && last !== null && first > last) {
    throw new ValidationError(`coverage ${first}..${last} is empty`, [
      { path: "lastRunOrdinal", message: "must not be below firstRunOrdinal" },
    ]);
  }
  if (d.addHandoffIds?.length) {
    for (const id of d.addHandoffIds) requireEntity(s.handoffs, id, "ContextHandoff");
    changes.handoffIds = [...new Set([...current.handoffIds, ...d.addHandoffIds])];
  }
  if (Object.keys(changes).length === 0) throw new ValidationError("no provider thread changes");
  return [
    {
      type: "ProviderThreadUpdated",
      data: { providerThreadId: current.id, changes, at: meta.at },
    },
  ];
}

/** The active attempt's provider turn started: attempt, root node and run become running. */
export function startProviderTurn(
  d: CommandData<"StartProviderTurn">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  if (run.status !== "starting" && run.status !== "running") {
    throw new InvalidTransitionError("Run", run.status, "running", run.id);
  }
  if (!run.activeAttemptId) throw new PreconditionFailedError(`run ${run.id} has no attempt`);
  const attempt = requireEntity(s.attempts, run.activeAttemptId, "RunAttempt");
  assertTransition("RunAttempt", attempt.status, "running", attempt.id);
  requireAbsent(s.providerTurns, d.providerTurnId, "ProviderTurn");
  const providerThread = requireEntity(
    s.providerThreads,
    attempt.providerThreadId,
    "ProviderThread",
  );
  if (providerThread.status !== "active") {
    assertTransition("ProviderThread", providerThread.status, "active", providerThread.id);
  }
  return [
    {
      type: "ProviderTurnStarted",
      data: {
        runId: run.id,
        providerTurn: {
          id: d.providerTurnId,
          providerThreadId: providerThread.id,
          nodeId: attempt.rootNodeId,
          runAttemptId: attempt.id,
          nativeTurnRef: d.nativeTurnRef ?? null,
          ordinal: (s.turnCountByProviderThread.get(providerThread.id) ?? 0) + 1,
          status: "running",
          startedAt: meta.at,
          completedAt: null,
          error: null,
          usage: null,
        },
        at: meta.at,
      },
    },
  ];
}

/** B8: the turn's start frame, once; a frame for a turn already over changes nothing. */
export function recordProviderTurnFrame(
  d: CommandData<"RecordProviderTurnFrame">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const turn = requireEntity(s.providerTurns, d.providerTurnId, "ProviderTurn");
  if (turn.status !== "running") return [];
  const { providerTurnId, rawEventId } = d;
  return [{ type: "ProviderTurnFrameRecorded", data: { providerTurnId, rawEventId, at: meta.at } }];
}

/**
 * The provider turn ended. When it is the run's active attempt, the run ends with it; a turn of a
 * superseded attempt (R1) ends alone.
 */
export function completeProviderTurn(
  d: CommandData<"CompleteProviderTurn">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const turn = requireEntity(s.providerTurns, d.providerTurnId, "ProviderTurn");
  assertTransition("ProviderTurn", turn.status, d.status, turn.id);
  const error = d.error ?? null;
  const events: ThreadEvent[] = [
    {
      type: "ProviderTurnCompleted",
      data: {
        providerTurnId: turn.id,
        status: d.status,
        error,
        usage: d.usage ?? null,
        ...(d.rawEventId === undefined ? {} : { rawEventId: d.rawEventId }),
        at: meta.at,
      },
    },
  ];
  const attempt = turn.runAttemptId ? s.attempts.get(turn.runAttemptId) : undefined;
  const run = attempt ? s.runs.get(attempt.runId) : undefined;
  const drivesRun =
    run && attempt && run.activeAttemptId === attempt.id && attempt.status !== "superseded";
  if (
    run &&
    drivesRun &&
    (run.status === "running" || run.status === "waiting" || run.status === "starting")
  ) {
    assertTransition("Run", run.status, d.status, run.id);
    events.push({
      type: "RunFinished",
      data: { runId: run.id, status: d.status, error, at: meta.at },
    });
    if (d.status === "failed" && d.usageLimit) {
      events.push(usageLimitReached(run, d.usageLimit, meta));
    }
  }
  return events;
}
