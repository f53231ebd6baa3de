import { describe, expect, it } from "vitest";
import type { Checkpoint } from "../entities/checkpoint.ts";
import type { CheckpointScope } from "../entities/checkpoint-scope.ts";
import type { Run } from "../entities/run.ts";
import { id } from "../testing/fixtures.ts";
import {
  conversationCounts,
  countsForConversation,
  itemCountsForConversation,
} from "./conversation-count.ts";

const AT = "2026-12-06T00:00:00.000Z";

function run(ordinal: number, extra: Partial<Run> = {}): Run {
  return {
    id: id("run", `r${ordinal}`),
    threadId: id("thread", "t"),
    ordinal,
    provider: "codex",
    model: null,
    providerThreadId: null,
    userMessageId: id("message", `m${ordinal}`),
    rootNodeId: null,
    activeAttemptId: null,
    status: "completed",
    requestedAt: AT,
    startedAt: AT,
    completedAt: AT,
    checkpointId: null,
    contextHandoffId: null,
    interruptRequestedAt: null,
    error: null,
    ...extra,
  };
}

function checkpoint(
  runOrdinal: number,
  scope: string,
  extra: Partial<Checkpoint> = {},
): Checkpoint {
  return {
    id: id("checkpoint", `c${runOrdinal}${scope}`),
    threadId: id("thread", "t"),
    scopeId: id("checkpointScope", scope),
    runId: id("run", `r${runOrdinal}`),
    nodeId: id("node", `n${runOrdinal}`),
    parentCheckpointId: null,
    ordinalWithinScope: 1,
    appRunOrdinal: runOrdinal,
    ref: `refs/skein/${runOrdinal}`,
    status: "ready",
    files: [],
    capturedAt: AT,
    ...extra,
  };
}

function scope(name: string, advancesAppRunCount: boolean): CheckpointScope {
  return {
    id: id("checkpointScope", name),
    threadId: id("thread", "t"),
    runId: null,
    nodeId: id("node", name),
    parentScopeId: null,
    providerThreadId: null,
    kind: advancesAppRunCount ? "root_run" : "subagent",
    ordinalWithinParent: 1,
    advancesAppRunCount,
    cwd: "/w",
    createdAt: AT,
  } as CheckpointScope;
}

describe("E3 countsForConversation: compaction, imported and system runs are not turns", () => {
  it("E3: an ordinary run counts; a compaction, an imported and a system run do not", () => {
    expect(countsForConversation(run(1))).toBe(true);
    expect(countsForConversation(run(2, { compact: true }))).toBe(false);
    expect(countsForConversation(run(3, { imported: true }))).toBe(false);
    expect(countsForConversation({ system: true })).toBe(false);
  });

  it("E3: turn numbers skip the runs that do not count, and cancelled or rolled-back runs", () => {
    const runs = [
      run(5),
      run(1, { imported: true }),
      run(2, { imported: true }),
      run(3),
      run(4, { compact: true }),
      run(6, { status: "cancelled" }),
      run(7, { status: "rolled_back" }),
      run(8, { status: "running" }),
    ];
    const counts = conversationCounts(runs);
    expect(counts.turnCount).toBe(3);
    expect([...counts.turnNumbers]).toEqual([
      [id("run", "r3"), 1],
      [id("run", "r5"), 2],
      [id("run", "r8"), 3],
    ]);
  });

  it("E3: numbering continues after the turns before (a window's earlier runs, a fork's inherited turns)", () => {
    const counts = conversationCounts([run(11), run(12, { compact: true }), run(13)], [], [], 7);
    expect(counts.turnCount).toBe(2);
    expect(counts.turnNumbers.get(id("run", "r11"))).toBe(8);
    expect(counts.turnNumbers.get(id("run", "r13"))).toBe(9);
    expect(counts.turnNumbers.has(id("run", "r12"))).toBe(false);
  });

  it("E3 E7: only ready root-scope checkpoints of counted, standing runs advance the checkpoint count", () => {
    const runs = [
      run(1),
      run(2, { compact: true }),
      run(3, { imported: true }),
      run(4, { status: "rolled_back" }),
      run(5),
    ];
    const checkpoints = [
      checkpoint(1, "root"),
      checkpoint(1, "child"),
      checkpoint(2, "root"),
      checkpoint(3, "root"),
      checkpoint(4, "root"),
      checkpoint(5, "root", { status: "missing" }),
    ];
    const scopes = [scope("root", true), scope("child", false)];
    expect(conversationCounts(runs, checkpoints, scopes).checkpointCount).toBe(1);
    // Without scopes, a child checkpoint of a counted run is not told apart.
    expect(conversationCounts(runs, checkpoints).checkpointCount).toBe(2);
  });

  it("E3 E16: items of a run that does not count are shown but advance nothing; thread-level items never count", () => {
    const runs = new Map([
      [id("run", "r1") as string, run(1)],
      [id("run", "r2") as string, run(2, { compact: true })],
      [id("run", "r3") as string, run(3, { imported: true })],
    ]);
    expect(itemCountsForConversation({ runId: id("run", "r1") }, runs)).toBe(true);
    expect(itemCountsForConversation({ runId: id("run", "r2") }, runs)).toBe(false);
    expect(itemCountsForConversation({ runId: id("run", "r3") }, runs)).toBe(false);
    expect(itemCountsForConversation({ runId: null }, runs)).toBe(false);
    expect(itemCountsForConversation({ runId: id("run", "unknown") }, runs)).toBe(false);
  });
});
