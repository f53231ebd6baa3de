import { describe, expect, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { asThread, id } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

describe("RecordCheckpointScope", () => {
  it("root_run scopes advance the run count; child scopes nest under them", () => {
    const s = new ThreadScenario().create();
    const r = s.completedRun();
    const scope = {
      type: "RecordCheckpointScope",
      data: {
        threadId: s.threadId,
        scopeId: id("checkpointScope", "root"),
        kind: "root_run",
        nodeId: r.rootNodeId,
        cwd: "/w",
      },
    } as const;
    given(s.events)
      .when(scope)
      .then([
        {
          type: "CheckpointScopeRecorded",
          data: {
            scope: {
              kind: "root_run",
              advancesAppRunCount: true,
              runId: r.runId,
              ordinalWithinParent: 1,
              parentScopeId: null,
            },
          },
        },
      ]);
    s.exec(scope);
    given(s.events)
      .when({
        type: "RecordCheckpointScope",
        data: {
          threadId: s.threadId,
          scopeId: id("checkpointScope", "sub"),
          kind: "subagent",
          nodeId: r.rootNodeId,
          parentScopeId: id("checkpointScope", "root"),
          cwd: "/w",
        },
      })
      .then([
        {
          type: "CheckpointScopeRecorded",
          data: { scope: { advancesAppRunCount: false, ordinalWithinParent: 1 } },
        },
      ]);
  });

  it("rejects root_run scopes with a parent, unknown nodes and duplicates", () => {
    const s = new ThreadScenario().create();
    const r = s.completedRun();
    const data = {
      threadId: s.threadId,
      scopeId: id("checkpointScope", "root"),
      kind: "root_run",
      nodeId: r.rootNodeId,
      cwd: "/w",
    } as const;
    s.exec({ type: "RecordCheckpointScope", data });
    given(s.events).when({ type: "RecordCheckpointScope", data }).thenFails("conflict");
    given(s.events)
      .when({
        type: "RecordCheckpointScope",
        data: { ...data, scopeId: id("checkpointScope", "x"), parentScopeId: data.scopeId },
      })
      .thenFails("validation");
    given(s.events)
      .when({
        type: "RecordCheckpointScope",
        data: { ...data, scopeId: id("checkpointScope", "y"), nodeId: id("node", "ghost") },
      })
      .thenFails("not_found");
  });
});

/** A thread with one completed run and that run's root checkpoint scope (`root`) recorded. */
function completedRunWithRootScope() {
  const s = new ThreadScenario().create();
  const r = s.completedRun();
  s.exec({
    type: "RecordCheckpointScope",
    data: {
      threadId: s.threadId,
      scopeId: id("checkpointScope", "root"),
      kind: "root_run",
      nodeId: r.rootNodeId,
      cwd: "/w",
    },
  });
  return { s, r };
}

describe("RecordCheckpoint", () => {
  it("a ready root-run checkpoint becomes the run's checkpoint, a checkpoint item, and the latest stable point", () => {
    const { s, r } = completedRunWithRootScope();
    const { after } = given(s.events)
      .when({
        type: "RecordCheckpoint",
        data: {
          threadId: s.threadId,
          checkpointId: id("checkpoint", "c"),
          scopeId: id("checkpointScope", "root"),
          ref: "refs/x",
          status: "ready",
          files: [{ path: "a", additions: 1, deletions: 2, status: "modified" }],
        },
      })
      .then([
        {
          type: "CheckpointRecorded",
          data: {
            checkpoint: {
              appRunOrdinal: 1,
              ordinalWithinScope: 1,
              status: "ready",
              runId: r.runId,
              parentCheckpointId: null,
            },
            item: {
              type: "checkpoint",
              action: "captured",
              appRunOrdinal: 1,
              runId: r.runId,
              files: [{ path: "a" }],
            },
          },
        },
      ]);
    const state = asThread(after);
    expect(state.runs.get(r.runId)?.checkpointId).toBe(id("checkpoint", "c"));
    expect(state.latestStableRunId).toBe(r.runId);
  });

  it("an error checkpoint is recorded without an item and does not become stable", () => {
    const { s } = completedRunWithRootScope();
    const { after } = given(s.events)
      .when({
        type: "RecordCheckpoint",
        data: {
          threadId: s.threadId,
          checkpointId: id("checkpoint", "c"),
          scopeId: id("checkpointScope", "root"),
          ref: "x",
          status: "error",
          files: [],
        },
      })
      .then([
        { type: "CheckpointRecorded", data: { item: null, checkpoint: { status: "error" } } },
      ]);
    expect(asThread(after).latestStableRunId).toBeNull();
    given(s.events)
      .when({
        type: "RecordCheckpoint",
        data: {
          threadId: s.threadId,
          checkpointId: id("checkpoint", "c"),
          scopeId: id("checkpointScope", "ghost"),
          ref: "x",
          status: "ready",
          files: [],
        },
      })
      .thenFails("not_found");
  });
});

describe("MarkCheckpointMissing", () => {
  it("marks a checkpoint missing and drops it as the stable point; rejects twice", () => {
    const s = new ThreadScenario().create();
    const r1 = s.completedRun("one", { checkpoint: true });
    const r2 = s.completedRun("two", { checkpoint: true });
    const cmd = {
      type: "MarkCheckpointMissing",
      data: { threadId: s.threadId, checkpointId: r2.checkpointId ?? id("checkpoint", "x") },
    } as const;
    const { events, after } = given(s.events)
      .when(cmd)
      .then([{ type: "CheckpointMarkedMissing" }]);
    expect(asThread(after).latestStableRunId).toBe(r1.runId);
    given([...s.events, ...events])
      .when(cmd)
      .thenFails("invalid_transition");
  });
});

describe("RollbackThread", () => {
  function threeRuns() {
    const s = new ThreadScenario().create();
    const r1 = s.completedRun("one", { checkpoint: true });
    const r2 = s.completedRun("two", { checkpoint: true });
    const r3 = s.completedRun("three", { checkpoint: true });
    return { s, r1, r2, r3 };
  }

  it("later runs become rolled_back, their checkpoints stale, and a restored checkpoint item is added", () => {
    const { s, r1, r2, r3 } = threeRuns();
    const { after } = given(s.events)
      .when({
        type: "RollbackThread",
        data: { threadId: s.threadId, checkpointId: r1.checkpointId ?? id("checkpoint", "x") },
      })
      .then([
        {
          type: "ThreadRolledBack",
          data: {
            runOrdinal: 1,
            rolledBackRunIds: [r2.runId, r3.runId],
            item: { type: "checkpoint", action: "restored", appRunOrdinal: 1 },
          },
        },
      ]);
    const state = asThread(after);
    expect(state.runs.get(r2.runId)?.status).toBe("rolled_back");
    expect(state.runs.get(r3.runId)?.status).toBe("rolled_back");
    expect(state.checkpoints.get(r3.checkpointId ?? id("checkpoint", "x"))?.status).toBe("stale");
    expect(state.nodes.get(r3.rootNodeId)?.status).toBe("rolled_back");
    expect(state.latestStableRunId).toBe(r1.runId);
    expect(state.latestCompletedRunId).toBe(r1.runId);
    expect(state.rolledBackRunOrdinals).toEqual([2, 3]);
  });

  it("is refused while a run is active, for child or non-ready checkpoints", () => {
    const { s, r1, r2 } = threeRuns();
    s.exec({
      type: "MarkCheckpointMissing",
      data: { threadId: s.threadId, checkpointId: r2.checkpointId ?? id("checkpoint", "x") },
    });
    given(s.events)
      .when({
        type: "RollbackThread",
        data: { threadId: s.threadId, checkpointId: r2.checkpointId ?? id("checkpoint", "x") },
      })
      .thenFails("precondition_failed", /missing/);
    s.start(s.queue("four"));
    given(s.events)
      .when({
        type: "RollbackThread",
        data: { threadId: s.threadId, checkpointId: r1.checkpointId ?? id("checkpoint", "x") },
      })
      .thenFails("precondition_failed", /active/);
    given(s.events)
      .when({
        type: "RollbackThread",
        data: { threadId: s.threadId, checkpointId: id("checkpoint", "ghost") },
      })
      .thenFails("not_found");
  });

  it("B14: scope code restores files only: no run is rolled back; the item lists the files changed", () => {
    const { s, r1, r2, r3 } = threeRuns();
    const { after } = given(s.events)
      .when({
        type: "RollbackThread",
        data: {
          threadId: s.threadId,
          checkpointId: r1.checkpointId ?? id("checkpoint", "x"),
          scope: "code",
          files: [{ path: "a.txt", additions: 1, deletions: 1, status: "modified" }],
        },
      })
      .then([
        {
          type: "ThreadRolledBack",
          data: {
            rolledBackRunIds: [],
            item: { action: "restored", files: [{ path: "a.txt" }] },
          },
        },
      ]);
    const state = asThread(after);
    expect(state.runs.get(r2.runId)?.status).toBe("completed");
    expect(state.runs.get(r3.runId)?.status).toBe("completed");
    expect(state.latestStableRunId).toBe(r3.runId);
  });

  it("B14: a safety (manual) checkpoint restores files only, and refuses a conversation rollback", () => {
    const { s, r1, r3 } = threeRuns();
    s.exec({
      type: "RecordCheckpointScope",
      data: {
        threadId: s.threadId,
        scopeId: id("checkpointScope", "safety"),
        kind: "manual",
        nodeId: r1.rootNodeId,
        cwd: "/w",
      },
    });
    s.exec({
      type: "RecordCheckpoint",
      data: {
        threadId: s.threadId,
        checkpointId: id("checkpoint", "safety"),
        scopeId: id("checkpointScope", "safety"),
        ref: "refs/skein/checkpoints/t/safety-1",
        status: "ready",
        files: [],
      },
    });
    const safety = id("checkpoint", "safety");
    const { after } = given(s.events)
      .when({ type: "RollbackThread", data: { threadId: s.threadId, checkpointId: safety } })
      .then([{ type: "ThreadRolledBack", data: { rolledBackRunIds: [] } }]);
    // Recording and restoring it changes neither the runs nor the stable run.
    expect(asThread(after).latestStableRunId).toBe(r3.runId);
    given(s.events)
      .when({
        type: "RollbackThread",
        data: { threadId: s.threadId, checkpointId: safety, scope: "conversation" },
      })
      .thenFails("precondition_failed", /safety checkpoint/);
  });
});
