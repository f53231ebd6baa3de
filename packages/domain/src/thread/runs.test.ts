import { describe, expect, it } from "vitest";
import { shellStatusOf } from "../projections/thread-shell.ts";
import { DEFAULT_THREAD_TITLE } from "./auto-title.ts";
import { nextQueuedRun } from "../state/thread-state.ts";
import { given } from "../testing/decider-spec.ts";
import { id, readThreads } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

function queueCmd(s: ThreadScenario, n: string, extra: object = {}) {
  return {
    type: "QueueRun",
    data: {
      threadId: s.threadId,
      runId: id("run", n),
      messageId: id("message", n),
      text: `text ${n}`,
      provider: "codex",
      ...extra,
    },
  } as const;
}

describe("QueueRun", () => {
  it("queues the run with its user message and user_message item", () => {
    const s = new ThreadScenario().create();
    const { after } = given(s.events)
      .when(queueCmd(s, "a"))
      .then([
        {
          type: "RunQueued",
          data: {
            run: { id: id("run", "a"), ordinal: 1, status: "queued", provider: "codex" },
            message: { role: "user", text: "text a", runId: id("run", "a") },
            item: { type: "user_message", runOrdinal: 1, provider: "codex", text: "text a" },
          },
        },
      ]);
    if (after.kind !== "thread") throw new Error();
    expect([...after.queuedRunIds]).toEqual([id("run", "a")]);
  });

  it("names a thread nobody named after its first message, and only after its first", () => {
    const s = new ThreadScenario().create("codex", DEFAULT_THREAD_TITLE);
    const first = given(s.events)
      .when(queueCmd(s, "a", { text: "Fix the login bug\nand add a test" }))
      .then([
        { type: "RunQueued" },
        {
          type: "ThreadSettingsUpdated",
          data: { threadId: s.threadId, changes: { title: "Fix the login bug" } },
        },
      ]);
    given([...s.events, ...first.events])
      .when(queueCmd(s, "b"))
      .then([{ type: "RunQueued" }]);
    // A thread with a title of its own keeps it.
    const named = new ThreadScenario().create("codex", "Main");
    given(named.events)
      .when(queueCmd(named, "a"))
      .then([{ type: "RunQueued" }]);
  });

  it("a run queued while another is active stays queued", () => {
    const s = new ThreadScenario().create();
    s.start(s.queue());
    const { after } = given(s.events)
      .when(queueCmd(s, "b"))
      .then([{ type: "RunQueued", data: { run: { status: "queued", ordinal: 2 } } }]);
    if (after.kind !== "thread") throw new Error();
    expect(after.activeRunId).toBe(s.state.activeRunId);
    expect(after.queuedRunIds.has(id("run", "b"))).toBe(true);
  });

  it("rejects duplicate run/message ids and unknown threads", () => {
    const s = new ThreadScenario().create();
    const { events } = given(s.events)
      .when(queueCmd(s, "a"))
      .then([{ type: "RunQueued" }]);
    given([...s.events, ...events])
      .when(queueCmd(s, "a"))
      .thenFails("conflict");
    given([...s.events, ...events])
      .when(queueCmd(s, "b", { messageId: id("message", "a") }))
      .thenFails("conflict");
    given().when(queueCmd(s, "a")).thenFails("not_found");
  });

  it("P6: a compaction run is marked compact; a thread without runs has nothing to compact", () => {
    const empty = new ThreadScenario().create();
    given(empty.events)
      .when(queueCmd(empty, "c", { compact: true, text: "/compact" }))
      .thenFails("precondition_failed");
    const s = new ThreadScenario().create();
    s.completedRun();
    given(s.events)
      .when(queueCmd(s, "c", { compact: true, text: "/compact" }))
      .then([{ type: "RunQueued", data: { run: { compact: true, ordinal: 2 } } }]);
  });

  describe("bring back a fork (T8)", () => {
    function forked() {
      const src = new ThreadScenario("src").create("codex");
      const base = src.completedRun("one", { checkpoint: true });
      const fork = new ThreadScenario("fork").forkOf(src);
      return { src, base, fork };
    }

    it("T8: merge_back transfer with basePoint = fork's source point and sourcePoint = fork's latest stable point; provider unchanged", () => {
      const { src, base, fork } = forked();
      fork.completedRun("explore", { provider: "claude" });
      const latest = fork.completedRun("explore more", { provider: "claude", checkpoint: true });
      const { after } = given(src.events)
        .when(queueCmd(src, "back", { bringBackFrom: fork.threadId }), readThreads(fork.state))
        .then([
          { type: "RunQueued", data: { run: { provider: "codex" } } },
          {
            type: "ContextTransferCreated",
            data: {
              transfer: {
                type: "merge_back",
                status: "pending",
                sourceThreadId: fork.threadId,
                targetThreadId: src.threadId,
                basePoint: { threadId: src.threadId, runId: base.runId },
                sourcePoint: {
                  threadId: fork.threadId,
                  runId: latest.runId,
                  checkpointId: latest.checkpointId,
                },
                sourceProvider: "claude",
                targetProvider: "codex",
                targetRunId: id("run", "back"),
              },
            },
          },
        ]);
      if (after.kind !== "thread") throw new Error();
      expect(after.thread?.defaultProvider).toBe("codex");
    });

    it("rejects a thread that is not a fork of this one, or a fork without a completed run", () => {
      const { src, fork } = forked();
      given(src.events)
        .when(queueCmd(src, "back", { bringBackFrom: fork.threadId }), readThreads(fork.state))
        .thenFails("precondition_failed", /no completed run/);
      const other = new ThreadScenario("other").create();
      given(src.events)
        .when(queueCmd(src, "back", { bringBackFrom: other.threadId }), readThreads(other.state))
        .thenFails("precondition_failed", /not a fork/);
      given(src.events)
        .when(queueCmd(src, "back", { bringBackFrom: fork.threadId }), {})
        .thenFails("not_found");
    });
  });
});

describe("StartRun", () => {
  function ready() {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const pt = s.providerThread("codex");
    return { s, runId, pt };
  }
  const startCmd = (
    s: ThreadScenario,
    runId: ReturnType<ThreadScenario["queue"]>,
    pt: ReturnType<ThreadScenario["providerThread"]>,
    extra: object = {},
  ) =>
    ({
      type: "StartRun",
      data: {
        threadId: s.threadId,
        runId,
        attemptId: id("attempt", "a"),
        rootNodeId: id("node", "root"),
        providerThreadId: pt,
        ...extra,
      },
    }) as const;

  it("moves the run to starting with a pending attempt and a root_turn node", () => {
    const { s, runId, pt } = ready();
    const { after } = given(s.events)
      .when(startCmd(s, runId, pt))
      .then([
        {
          type: "RunStarted",
          data: {
            runId,
            attempt: {
              attemptOrdinal: 1,
              status: "pending",
              reason: "initial",
              providerThreadId: pt,
            },
            rootNode: {
              kind: "root_turn",
              status: "pending",
              countsForRun: true,
              parentNodeId: null,
            },
          },
        },
      ]);
    if (after.kind !== "thread") throw new Error();
    expect(after.runs.get(runId)?.status).toBe("starting");
    expect(after.activeRunId).toBe(runId);
    expect(after.thread?.activeProviderThreadId).toBe(pt);
  });

  it("rejects a second active run, out-of-order dispatch, and non-queued runs", () => {
    const { s, runId, pt } = ready();
    const second = s.queue("second");
    given(s.events)
      .when(startCmd(s, second, pt))
      .thenFails("precondition_failed", /queued behind/);
    s.start(runId, pt);
    given(s.events)
      .when(startCmd(s, second, pt))
      .thenFails("precondition_failed", /still active/);
    given(s.events)
      .when(startCmd(s, runId, pt))
      .thenFails("invalid_transition");
    given(s.events)
      .when(startCmd(s, id("run", "ghost"), pt))
      .thenFails("not_found");
  });

  it("rejects a provider thread of another provider, unknown provider threads and unready handoffs", () => {
    const { s, runId } = ready();
    const claude = s.providerThread("claude");
    given(s.events)
      .when(startCmd(s, runId, claude))
      .thenFails("precondition_failed", /claude/);
    given(s.events)
      .when(startCmd(s, runId, id("providerThread", "ghost")))
      .thenFails("not_found");
    const pt = s.providerThread("codex");
    given(s.events)
      .when(startCmd(s, runId, pt, { contextHandoffId: id("handoff", "ghost") }))
      .thenFails("not_found");
  });

  it("rejects a closed provider thread", () => {
    const { s, runId, pt } = ready();
    s.exec({
      type: "UpdateProviderThread",
      data: { threadId: s.threadId, providerThreadId: pt, status: "closed" },
    });
    given(s.events)
      .when(startCmd(s, runId, pt))
      .thenFails("precondition_failed", /closed/);
  });
});

describe("CancelQueuedRun", () => {
  it("cancels a queued run; rejects a started one", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const { after } = given(s.events)
      .when({ type: "CancelQueuedRun", data: { threadId: s.threadId, runId } })
      .then([{ type: "RunCancelled", data: { runId } }]);
    if (after.kind !== "thread") throw new Error();
    expect(after.queuedRunIds.size).toBe(0);
    s.start(runId);
    given(s.events)
      .when({ type: "CancelQueuedRun", data: { threadId: s.threadId, runId } })
      .thenFails("conflict", /can no longer be withdrawn/);
  });
});

describe("InterruptRun", () => {
  it("requests an interrupt of a running turn; the run ends interrupted when the turn does", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const { providerTurnId } = s.start(runId);
    const { events, after } = given(s.events)
      .when({ type: "InterruptRun", data: { threadId: s.threadId, runId } })
      .then([{ type: "RunInterruptRequested", data: { runId } }]);
    if (after.kind !== "thread") throw new Error();
    expect(after.runs.get(runId)?.status).toBe("running");
    given([...s.events, ...events])
      .when({ type: "InterruptRun", data: { threadId: s.threadId, runId } })
      .thenFails("precondition_failed", /already requested/);
    const done = given([...s.events, ...events])
      .when({
        type: "CompleteProviderTurn",
        data: { threadId: s.threadId, providerTurnId, status: "interrupted" },
      })
      .then([
        { type: "ProviderTurnCompleted" },
        { type: "RunFinished", data: { status: "interrupted" } },
      ]);
    if (done.after.kind !== "thread") throw new Error();
    expect(done.after.runs.get(runId)?.status).toBe("interrupted");
  });

  it("ends a run right away when its turn has not started", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    s.start(runId, undefined, false);
    const { after } = given(s.events)
      .when({ type: "InterruptRun", data: { threadId: s.threadId, runId } })
      .then([{ type: "RunFinished", data: { status: "interrupted" } }]);
    if (after.kind !== "thread") throw new Error();
    const run = after.runs.get(runId);
    expect(run?.status).toBe("interrupted");
    expect(after.attempts.get(run?.activeAttemptId ?? id("attempt", "x"))?.status).toBe(
      "interrupted",
    );
    expect(after.activeRunId).toBeNull();
  });

  it("rejects queued and finished runs", () => {
    const s = new ThreadScenario().create();
    const queued = s.queue();
    given(s.events)
      .when({ type: "InterruptRun", data: { threadId: s.threadId, runId: queued } })
      .thenFails("invalid_transition");
    s.exec({ type: "CancelQueuedRun", data: { threadId: s.threadId, runId: queued } });
    const done = s.completedRun();
    given(s.events)
      .when({ type: "InterruptRun", data: { threadId: s.threadId, runId: done.runId } })
      .thenFails("invalid_transition");
  });
});

describe("FailRun", () => {
  it("B1: a queued run failed before it started leaves the queue; the run behind it is next", () => {
    const s = new ThreadScenario().create();
    const first = s.queue("first");
    const second = s.queue("second");
    const { after } = given(s.events)
      .when({ type: "FailRun", data: { threadId: s.threadId, runId: first, error: "no folder" } })
      .then([{ type: "RunFinished", data: { runId: first, status: "failed" } }]);
    if (after.kind !== "thread") throw new Error();
    expect([...after.queuedRunIds]).toEqual([second]);
    expect(nextQueuedRun(after)?.id).toBe(second);
    expect(shellStatusOf(after)).toBe("running");
    s.exec({ type: "FailRun", data: { threadId: s.threadId, runId: first, error: "no folder" } });
    // The failed run can never be dispatched again; the one behind it can.
    const pt = s.providerThread();
    given(s.events)
      .when({
        type: "StartRun",
        data: {
          threadId: s.threadId,
          runId: first,
          attemptId: id("attempt", "again"),
          rootNodeId: id("node", "again"),
          providerThreadId: pt,
        },
      })
      .thenFails("invalid_transition");
    s.exec({ type: "FailRun", data: { threadId: s.threadId, runId: second, error: "no folder" } });
    expect(s.state.queuedRunIds.size).toBe(0);
    expect(nextQueuedRun(s.state)).toBeUndefined();
    expect(s.state.activeRunId).toBeNull();
    // Nothing queued or active: the thread no longer shows as running.
    expect(shellStatusOf(s.state)).not.toBe("running");
  });

  it("fails a starting run with no turn (e.g. unsupported start context); rejects while its turn runs", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    s.start(runId, undefined, false);
    const { after } = given(s.events)
      .when({ type: "FailRun", data: { threadId: s.threadId, runId, error: "unsupported" } })
      .then([{ type: "RunFinished", data: { status: "failed", error: "unsupported" } }]);
    if (after.kind !== "thread") throw new Error();
    expect(after.runs.get(runId)?.error).toBe("unsupported");
    const s2 = new ThreadScenario().create();
    const r2 = s2.queue();
    s2.start(r2);
    given(s2.events)
      .when({ type: "FailRun", data: { threadId: s2.threadId, runId: r2, error: "x" } })
      .thenFails("precondition_failed");
    // T5: a queued run refused before any provider work fails without ever starting.
    const r3 = s.queue();
    given(s.events)
      .when({ type: "FailRun", data: { threadId: s.threadId, runId: r3, error: "unsupported" } })
      .then([{ type: "RunFinished", data: { status: "failed", error: "unsupported" } }]);
    // Already failed: a second failure is not a transition.
    s.exec({ type: "FailRun", data: { threadId: s.threadId, runId, error: "unsupported" } });
    given(s.events)
      .when({ type: "FailRun", data: { threadId: s.threadId, runId, error: "again" } })
      .thenFails("invalid_transition");
  });
});
