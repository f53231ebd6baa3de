import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ThreadCommand } from "../commands.ts";
import { ACTIVE_RUN_STATUSES } from "../entities/run.ts";
import { formatZodError } from "../errors.ts";
import { DomainEvent, type ThreadEvent } from "../events.ts";
import { rebuildRows } from "../projections/rebuild.ts";
import { evolveThread } from "../state/evolve-thread.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { id } from "../testing/fixtures.ts";
import { incrementalRows } from "../testing/rows.ts";
import { ThreadScenario } from "../testing/scenario.ts";
import { decideThread } from "./decide-thread.ts";

const ACTIONS = [
  "queue",
  "start",
  "turn",
  "item",
  "delta",
  "completeItem",
  "request",
  "resolve",
  "finish",
  "interrupt",
  "cancel",
  "recover",
  "checkpoint",
  "rollback",
  "steer",
  "restart",
] as const;
type Action = { kind: (typeof ACTIONS)[number]; pick: number; flag: number };

function pickOf<T>(list: readonly T[], n: number): T | undefined {
  return list.length === 0 ? undefined : list[n % list.length];
}

/** Turns an abstract action into a concrete command against the current state (may be invalid). */
function commandFor(a: Action, s: ThreadScenario, n: number): ThreadCommand | null {
  const st = s.state;
  const t = s.threadId;
  // Mostly aim at targets where the command can apply; sometimes pick anything (rejections).
  const wild = a.flag % 6 === 0;
  const runs = [...st.runs.values()];
  const activeRun = st.activeRunId ? st.runs.get(st.activeRunId) : undefined;
  const nextQueued = st.queuedRunIds.values().next().value;
  const run = wild
    ? pickOf(runs, a.pick)
    : a.kind === "start" && activeRun?.status === "starting"
      ? activeRun
      : a.kind === "start" || a.kind === "cancel"
        ? nextQueued
          ? st.runs.get(nextQueued)
          : undefined
        : (activeRun ?? pickOf(runs, a.pick));
  const turns = [...st.providerTurns.values()];
  const runningTurns = turns.filter((x) => x.status === "running");
  const turn = wild
    ? pickOf(turns, a.pick)
    : (pickOf(runningTurns, a.pick) ?? pickOf(turns, a.pick));
  const nodes = [...st.nodes.values()].filter((x) => x.kind !== "root_turn");
  const openNodes = nodes.filter((x) => x.status === "running");
  const node = wild ? pickOf(nodes, a.pick) : (pickOf(openNodes, a.pick) ?? pickOf(nodes, a.pick));
  const status = a.flag % 7 === 0 ? "failed" : a.flag % 5 === 0 ? "interrupted" : "completed";
  switch (a.kind) {
    case "queue":
      return {
        type: "QueueRun",
        data: {
          threadId: t,
          runId: id("run", `p${n}`),
          messageId: id("message", `p${n}`),
          text: "x",
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
            providerThreadId: id("providerThread", `p${n}`),
            provider: run.provider,
          },
        };
      }
      if (run.status === "starting") {
        return {
          type: "StartProviderTurn",
          data: { threadId: t, runId: run.id, providerTurnId: id("providerTurn", `p${n}`) },
        };
      }
      return {
        type: "StartRun",
        data: {
          threadId: t,
          runId: run.id,
          attemptId: id("attempt", `p${n}`),
          rootNodeId: id("node", `r${n}`),
          providerThreadId: pt.id,
        },
      };
    }
    case "turn":
      return run
        ? {
            type: "StartProviderTurn",
            data: { threadId: t, runId: run.id, providerTurnId: id("providerTurn", `p${n}`) },
          }
        : null;
    case "item":
      return turn
        ? {
            type: "StartItem",
            data: {
              threadId: t,
              providerTurnId: turn.id,
              nodeId: id("node", `p${n}`),
              kind: a.flag % 2 ? "assistant_message" : "tool_call",
              ...(a.flag % 2
                ? {}
                : { content: { type: "command_execution" as const, input: "ls" } }),
              ...(a.flag % 5 === 0 && node ? { parentNodeId: node.id } : {}),
            },
          }
        : null;
    case "delta":
      return node
        ? { type: "AppendItemDelta", data: { threadId: t, nodeId: node.id, delta: "d" } }
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
              requestId: id("request", `p${n}`),
              nodeId: id("node", `q${n}`),
              kind: "command",
              providerSessionId: id("providerSession", "s"),
              title: "ok?",
            },
          }
        : null;
    case "resolve": {
      const all = [...st.requests.values()];
      const req = wild
        ? pickOf(all, a.pick)
        : (pickOf(
            all.filter((r) => r.status === "pending"),
            a.pick,
          ) ?? pickOf(all, a.pick));
      return req
        ? {
            type: "ResolveRuntimeRequest",
            data: { threadId: t, requestId: req.id, decision: a.flag % 2 ? "accept" : "decline" },
          }
        : null;
    }
    case "finish":
      return turn
        ? { type: "CompleteProviderTurn", data: { threadId: t, providerTurnId: turn.id, status } }
        : null;
    case "interrupt":
      return run ? { type: "InterruptRun", data: { threadId: t, runId: run.id } } : null;
    case "cancel":
      return run && a.flag % 3 === 0
        ? { type: "CancelQueuedRun", data: { threadId: t, runId: run.id } }
        : null;
    case "recover":
      return run
        ? { type: "RecoverInterruptedRun", data: { threadId: t, runId: run.id, reason: "restart" } }
        : null;
    case "checkpoint": {
      const done = runs.filter((r) => r.status === "completed" && !r.checkpointId);
      const target = wild ? run : (pickOf(done, a.pick) ?? run);
      if (!target?.rootNodeId) return null;
      const scope = [...st.checkpointScopes.values()].find((x) => x.runId === target.id);
      if (!scope) {
        return {
          type: "RecordCheckpointScope",
          data: {
            threadId: t,
            scopeId: id("checkpointScope", `p${n}`),
            kind: "root_run",
            nodeId: target.rootNodeId,
            cwd: "/w",
          },
        };
      }
      return {
        type: "RecordCheckpoint",
        data: {
          threadId: t,
          checkpointId: id("checkpoint", `p${n}`),
          scopeId: scope.id,
          ref: "r",
          status: "ready",
          files: [],
        },
      };
    }
    case "rollback": {
      const ckp = pickOf([...st.checkpoints.values()], a.pick);
      return ckp ? { type: "RollbackThread", data: { threadId: t, checkpointId: ckp.id } } : null;
    }
    case "steer":
      return run
        ? {
            type: "SteerRun",
            data: { threadId: t, runId: run.id, messageId: id("message", `s${n}`), text: "steer" },
          }
        : null;
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
  }
}

function checkInvariants(st: ThreadState): void {
  const active = [...st.runs.values()].filter((r) => ACTIVE_RUN_STATUSES.includes(r.status));
  expect(active.length).toBeLessThanOrEqual(1);
  expect(st.activeRunId).toBe(active[0]?.id ?? null);
  for (const requestId of st.pendingRequestIds)
    expect(st.requests.get(requestId)?.status).toBe("pending");
  const keys = [...st.turnItems.values()].map((e) => e.sortKey);
  expect(keys).toEqual([...keys].sort((a, b) => a - b));
  expect(new Set(keys).size).toBe(keys.length);
  for (const id of st.queuedRunIds) expect(st.runs.get(id)?.status).toBe("queued");
}

const seen = new Set<string>();
const CODES = [
  "invalid_transition",
  "not_found",
  "conflict",
  "validation",
  "capability_unsupported",
  "precondition_failed",
];

describe("random command sequences", () => {
  it("keep invariants, never change state on rejection, emit schema-valid events, and rebuild to the same rows", () => {
    // Weighted so sequences often get runs going and finished, not just rejected.
    const weighted = [
      ...ACTIONS,
      "queue",
      "queue",
      "start",
      "start",
      "item",
      "item",
      "delta",
      "finish",
      "finish",
      "checkpoint",
      "rollback",
      "request",
      "resolve",
    ] as const;
    const action = fc.record({
      kind: fc.constantFrom(...weighted),
      pick: fc.nat(50),
      flag: fc.nat(20),
    });
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 80, size: "max" }), (actions) => {
        const s = new ThreadScenario("prop").create();
        const log: ThreadEvent[] = [...s.events];
        const steps = actions.flatMap((a) =>
          a.kind === "start" ? [a, a, a] : a.kind === "checkpoint" ? [a, a] : [a],
        );
        steps.forEach((a, n) => {
          const command = commandFor(a, s, n);
          if (!command) return;
          const before = structuredClone(s.state);
          const result = decideThread(command, s.state, s.meta());
          expect(s.state).toEqual(before);
          if (!result.ok) {
            expect(result.error.message).not.toBe("");
            expect(CODES).toContain(result.error.code);
            return;
          }
          for (const event of result.events) {
            seen.add(event.type);
            const parsed = DomainEvent.safeParse(event);
            if (!parsed.success) throw new Error(`${event.type}: ${formatZodError(parsed.error)}`);
            evolveThread(s.state, event);
            log.push(event);
          }
          checkInvariants(s.state);
        });
        expect(rebuildRows([[`thread-${s.threadId}`, log]])).toEqual(incrementalRows(log));
      }),
      { numRuns: 60, seed: 20250101 },
    );
    // The generator must reach the interesting paths, not just pile up rejections.
    for (const type of [
      "RunStarted",
      "ProviderTurnStarted",
      "ItemStarted",
      "RuntimeRequestResolved",
      "RunFinished",
      "RunRecovered",
      "AttemptRestarted",
      "ThreadRolledBack",
      "RunSteered",
    ]) {
      expect(seen, type).toContain(type);
    }
  });
});
