import type { ThreadCommand } from "../commands.ts";
import type { Run } from "../entities/run.ts";
import type { ThreadId } from "../ids.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { id } from "./fixtures.ts";
import { type Action, pickOf, type ThreadAction } from "./random-world-commands.ts";

/** A command for one thread; `null` when the state offers nothing to aim at. */
export function threadCommand(
  a: Action & { kind: ThreadAction },
  st: ThreadState,
  t: ThreadId,
  n: string,
): ThreadCommand | null {
  const wild = a.flag % 6 === 0;
  const runs = [...st.runs.values()];
  const activeRun = st.activeRunId ? st.runs.get(st.activeRunId) : undefined;
  const nextQueued = st.queuedRunIds.values().next().value;
  const queued = nextQueued ? st.runs.get(nextQueued) : undefined;
  const run = wild
    ? pickOf(runs, a.pick)
    : a.kind === "start"
      ? activeRun?.status === "starting"
        ? activeRun
        : queued
      : a.kind === "cancel" || (a.kind === "fail" && a.flag % 2 === 0)
        ? queued
        : (activeRun ?? pickOf(runs, a.pick));
  const turns = [...st.providerTurns.values()];
  const running = turns.filter((x) => x.status === "running");
  const turn = wild ? pickOf(turns, a.pick) : (pickOf(running, a.pick) ?? pickOf(turns, a.pick));
  const nodes = [...st.nodes.values()].filter((x) => x.kind !== "root_turn");
  const open = nodes.filter((x) => x.status === "running");
  const node = wild ? pickOf(nodes, a.pick) : (pickOf(open, a.pick) ?? pickOf(nodes, a.pick));
  // "start" on an idle thread queues a run first, so starts rarely go to waste; with a run under
  // way it waits, as a dispatcher would.
  if (a.kind === "start" && !wild && activeRun && activeRun.status !== "starting") return null;
  const kind = a.kind === "start" && !run && !wild ? "queue" : a.kind;
  switch (kind) {
    case "queue":
      return {
        type: "QueueRun",
        data: {
          threadId: t,
          runId: id("run", n),
          messageId: id("message", n),
          text: `ask ${n}`,
          provider: a.flag % 2 ? "codex" : "claude",
        },
      };
    case "start": {
      if (!run) return null;
      const pt = [...st.providerThreads.values()].find((p) => p.provider === run.provider);
      if (!pt) {
        return {
          type: "RecordProviderThread",
          data: {
            threadId: t,
            providerThreadId: id("providerThread", n),
            provider: run.provider,
          },
        };
      }
      if (run.status === "starting") {
        return {
          type: "StartProviderTurn",
          data: { threadId: t, runId: run.id, providerTurnId: id("providerTurn", n) },
        };
      }
      return {
        type: "StartRun",
        data: {
          threadId: t,
          runId: run.id,
          attemptId: id("attempt", n),
          rootNodeId: id("node", `r${n}`),
          providerThreadId: pt.id,
        },
      };
    }
    case "turn":
      return run
        ? {
            type: "StartProviderTurn",
            data: { threadId: t, runId: run.id, providerTurnId: id("providerTurn", n) },
          }
        : null;
    case "item":
      return turn
        ? {
            type: "StartItem",
            data: {
              threadId: t,
              providerTurnId: turn.id,
              nodeId: id("node", n),
              kind: a.flag % 2 ? "assistant_message" : "tool_call",
              ...(a.flag % 2 ? {} : { content: { type: "command_execution", input: "ls" } }),
              ...(a.flag % 5 === 0 && node ? { parentNodeId: node.id } : {}),
            },
          }
        : null;
    case "delta":
      return node
        ? { type: "AppendItemDelta", data: { threadId: t, nodeId: node.id, delta: `d${n} ` } }
        : null;
    case "completeItem":
      return node
        ? {
            type: "CompleteItem",
            data: { threadId: t, nodeId: node.id, status: a.flag % 4 ? "completed" : "declined" },
          }
        : null;
    case "request":
      return turn
        ? {
            type: "OpenRuntimeRequest",
            data: {
              threadId: t,
              providerTurnId: turn.id,
              requestId: id("request", n),
              nodeId: id("node", `q${n}`),
              kind: "command",
              providerSessionId: id("providerSession", "live"),
              title: "Run it?",
            },
          }
        : null;
    case "resolve": {
      const all = [...st.requests.values()];
      const pending = all.filter((r) => r.status === "pending");
      const request = wild ? pickOf(all, a.pick) : (pickOf(pending, a.pick) ?? pickOf(all, a.pick));
      return request
        ? {
            type: "ResolveRuntimeRequest",
            data: {
              threadId: t,
              requestId: request.id,
              decision: a.flag % 2 ? "accept" : "decline",
            },
          }
        : null;
    }
    case "finish": {
      const status = a.flag % 7 === 0 ? "failed" : a.flag % 5 === 0 ? "interrupted" : "completed";
      return turn
        ? { type: "CompleteProviderTurn", data: { threadId: t, providerTurnId: turn.id, status } }
        : null;
    }
    case "interrupt":
      return run ? { type: "InterruptRun", data: { threadId: t, runId: run.id } } : null;
    case "cancel":
      return run && a.flag % 3 === 0
        ? { type: "CancelQueuedRun", data: { threadId: t, runId: run.id } }
        : null;
    case "checkpoint":
      return checkpointCommand(a, st, t, n, wild ? run : undefined);
    case "rollback": {
      const checkpoint = pickOf([...st.checkpoints.values()], a.pick);
      return checkpoint && a.flag % 2 === 0
        ? { type: "RollbackThread", data: { threadId: t, checkpointId: checkpoint.id } }
        : null;
    }
    case "fail":
      // B1: a run that fails before (or while) starting must leave the queue.
      return run
        ? { type: "FailRun", data: { threadId: t, runId: run.id, error: "could not start" } }
        : null;
    case "recover":
      return run
        ? { type: "RecoverInterruptedRun", data: { threadId: t, runId: run.id, reason: "restart" } }
        : null;
    case "retry": {
      const settled = runs.filter((r) => r.status === "failed" || r.status === "interrupted");
      const target = wild ? run : (settled.at(-1) ?? run);
      return target ? { type: "RetryRun", data: { threadId: t, runId: target.id } } : null;
    }
    case "restart":
      return run
        ? {
            type: "RestartAttempt",
            data: {
              threadId: t,
              runId: run.id,
              attemptId: id("attempt", `s${n}`),
              rootNodeId: id("node", `s${n}`),
              reason: "steering_restart",
            },
          }
        : null;
    case "steer":
      return run
        ? {
            type: "SteerRun",
            data: { threadId: t, runId: run.id, messageId: id("message", `s${n}`), text: "more" },
          }
        : null;
  }
}

/** A root-run checkpoint for a completed run: first its scope, then the checkpoint itself. */
function checkpointCommand(
  a: Action,
  st: ThreadState,
  t: ThreadId,
  n: string,
  wildRun: Run | undefined,
): ThreadCommand | null {
  const done = [...st.runs.values()].filter((r) => r.status === "completed" && !r.checkpointId);
  const target = wildRun ?? pickOf(done, a.pick);
  if (!target?.rootNodeId) return null;
  const scope = [...st.checkpointScopes.values()].find((x) => x.runId === target.id);
  if (!scope) {
    return {
      type: "RecordCheckpointScope",
      data: {
        threadId: t,
        scopeId: id("checkpointScope", n),
        kind: "root_run",
        nodeId: target.rootNodeId,
        cwd: "/work",
      },
    };
  }
  return {
    type: "RecordCheckpoint",
    data: {
      threadId: t,
      checkpointId: id("checkpoint", n),
      scopeId: scope.id,
      ref: `refs/skein/${n}`,
      status: "ready",
      files: [],
    },
  };
}
