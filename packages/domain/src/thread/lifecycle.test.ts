import { describe, expect, it } from "vitest";
import type { CommandOf } from "../commands.ts";
import type { ForkSourcePointSpec } from "../commands/thread-lifecycle-commands.ts";
import type { ThreadEvent } from "../events.ts";
import { given } from "../testing/decider-spec.ts";
import { id, readThreads } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

const NEW = id("thread", "new");

describe("CreateThread", () => {
  it("creates a root thread with defaults and self-rooted lineage", () => {
    given()
      .when({
        type: "CreateThread",
        data: {
          threadId: NEW,
          projectId: id("project", "p"),
          title: "T",
          defaultProvider: "claude",
        },
      })
      .then([
        {
          type: "ThreadCreated",
          data: {
            thread: {
              id: NEW,
              defaultProvider: "claude",
              runtimeMode: "approval-required",
              interactionMode: "default",
              modelSelection: { model: null },
              lineage: { parentThreadId: null, relationshipToParent: null, rootThreadId: NEW },
              activeProviderThreadId: null,
            },
          },
        },
      ]);
  });

  it("creates a subagent child thread under a parent without inheriting items", () => {
    const parent = new ThreadScenario("parent").create();
    given()
      .when(
        {
          type: "CreateThread",
          data: {
            threadId: NEW,
            projectId: id("project", "p"),
            title: "child",
            defaultProvider: "claude",
            parentThreadId: parent.threadId,
          },
        },
        readThreads(parent.state),
      )
      .then([
        {
          type: "ThreadCreated",
          data: {
            thread: {
              lineage: {
                parentThreadId: parent.threadId,
                relationshipToParent: "subagent",
                rootThreadId: parent.threadId,
              },
            },
          },
        },
      ]);
  });

  it("issue 26: a sub-agent child has its parent's PORT (it runs in the parent's runtime); a parent without one gives none", () => {
    const parent = new ThreadScenario("parent").create();
    const child = {
      type: "CreateThread" as const,
      data: {
        threadId: NEW,
        projectId: id("project", "p"),
        title: "child",
        defaultProvider: "codex" as const,
        parentThreadId: parent.threadId,
      },
    };
    const none = given()
      .when(child, readThreads(parent.state))
      .then([{ type: "ThreadCreated" }]);
    expect(none.events[0]?.type === "ThreadCreated" && none.events[0].data.thread.port).toBe(
      undefined,
    );
    parent.exec({ type: "UpdateThreadSettings", data: { threadId: parent.threadId, port: 4100 } });
    given()
      .when(child, readThreads(parent.state))
      .then([{ type: "ThreadCreated", data: { thread: { port: 4100 } } }]);
  });

  it("B19: a thread an outside agent starts records the agent and its name; the person's records none", () => {
    const create = (agentName?: string): CommandOf<"CreateThread"> => ({
      type: "CreateThread",
      data: {
        threadId: NEW,
        projectId: id("project", "p"),
        title: "T",
        defaultProvider: "codex",
        ...(agentName === undefined ? {} : { agentName }),
      },
    });
    const { events } = given()
      .when(create("codex-mcp-client"))
      .then([
        {
          type: "ThreadCreated",
          data: { thread: { createdBy: "agent", agentName: "codex-mcp-client" } },
        },
      ]);
    const { after } = given()
      .when(create())
      .then([{ type: "ThreadCreated" }]);
    if (after.kind !== "thread") throw new Error("thread state expected");
    expect(after.thread).not.toHaveProperty("createdBy");
    expect(events).toHaveLength(1);
  });

  it("rejects an existing thread (conflict) and an unknown parent (not_found)", () => {
    const s = new ThreadScenario().create();
    given(s.events)
      .when({
        type: "CreateThread",
        data: {
          threadId: s.threadId,
          projectId: id("project", "p"),
          title: "T",
          defaultProvider: "codex",
        },
      })
      .thenFails("conflict");
    given()
      .when({
        type: "CreateThread",
        data: {
          threadId: NEW,
          projectId: id("project", "p"),
          title: "T",
          defaultProvider: "codex",
          parentThreadId: id("thread", "ghost"),
        },
      })
      .thenFails("not_found");
  });
});

describe("ForkThread", () => {
  function source() {
    const s = new ThreadScenario("src").create();
    const r1 = s.completedRun("one", { checkpoint: true });
    const r2 = s.completedRun("two");
    return { s, r1, r2 };
  }
  const fork = (
    sourceThreadId = id("thread", "src"),
    sourcePoint: ForkSourcePointSpec = { type: "latest_stable" },
  ): CommandOf<"ForkThread"> => ({
    type: "ForkThread",
    data: { threadId: NEW, sourceThreadId, sourcePoint, createdBy: "user", relationship: "fork" },
  });

  it("T1 E2 E11: fork creates the thread with fork lineage and a pending transfer, and nothing provider-side", () => {
    const { s, r1 } = source();
    const { events, after } = given()
      .when(fork(s.threadId), readThreads(s.state))
      .then([
        {
          type: "ThreadForked",
          data: {
            thread: {
              id: NEW,
              lineage: {
                parentThreadId: s.threadId,
                relationshipToParent: "fork",
                rootThreadId: s.threadId,
              },
              activeProviderThreadId: null,
            },
            item: { type: "fork", sourceThreadId: s.threadId, title: "Forked from conversation" },
          },
        },
        {
          type: "ContextTransferCreated",
          data: {
            transfer: {
              type: "fork",
              status: "pending",
              sourceThreadId: s.threadId,
              targetThreadId: NEW,
              sourcePoint: { runId: r1.runId, checkpointId: r1.checkpointId },
              targetProvider: null,
              resolution: null,
              createdBy: "user",
            },
          },
        },
      ]);
    const types = events.map((e: { type: string }) => e.type);
    expect(types).not.toContain("ProviderThreadRecorded");
    expect(types).not.toContain("HandoffRecorded");
    if (after.kind !== "thread") throw new Error("thread state expected");
    expect(after.providerThreads.size).toBe(0);
    expect(after.providerTurns.size).toBe(0);
    expect(after.handoffs.size).toBe(0);
    expect(after.runs.size).toBe(0);
  });

  it("T2: latest_stable picks the latest completed run with a checkpoint", () => {
    const { s, r1 } = source();
    const { events } = given()
      .when(fork(s.threadId), readThreads(s.state))
      .then([
        { type: "ThreadForked", data: { inheritance: { sourceRunOrdinal: 1 } } },
        {
          type: "ContextTransferCreated",
          data: { transfer: { sourcePoint: { runId: r1.runId } } },
        },
      ]);
    const forked = events[0] as Extract<ThreadEvent, { type: "ThreadForked" }>;
    expect(forked.data.inheritance.cutoffSortKey).toBe(s.state.nextItemSortKey - 1);
  });

  it("T2: latest_stable falls back to the latest completed run when no checkpoint exists", () => {
    const s = new ThreadScenario("src").create();
    s.completedRun("one");
    const r2 = s.completedRun("two");
    given()
      .when(fork(s.threadId), readThreads(s.state))
      .then([
        { type: "ThreadForked", data: { inheritance: { sourceRunOrdinal: 2 } } },
        {
          type: "ContextTransferCreated",
          data: { transfer: { sourcePoint: { runId: r2.runId, checkpointId: null } } },
        },
      ]);
  });

  it("forks an empty thread from its beginning", () => {
    const s = new ThreadScenario("src").create();
    given()
      .when(fork(s.threadId), readThreads(s.state))
      .then([
        { type: "ThreadForked", data: { inheritance: { sourceRunOrdinal: 0, cutoffSortKey: 0 } } },
        {
          type: "ContextTransferCreated",
          data: { transfer: { sourcePoint: { runId: null }, sourceProvider: null } },
        },
      ]);
  });

  it("T2: fork at an in-progress run is rejected", () => {
    const { s } = source();
    const running = s.queue("three");
    s.start(running);
    given()
      .when(fork(s.threadId, { type: "run", runId: running }), readThreads(s.state))
      .thenFails("precondition_failed", /is still running/);
    const queued = s.queue("four");
    given()
      .when(fork(s.threadId, { type: "run", runId: queued }), readThreads(s.state))
      .thenFails("precondition_failed");
  });

  it("T2: fork at an explicit completed run cuts at that run's last item", () => {
    const { s, r1 } = source();
    const { events } = given()
      .when(fork(s.threadId, { type: "run", runId: r1.runId }), readThreads(s.state))
      .then([{ type: "ThreadForked" }, { type: "ContextTransferCreated" }]);
    const forked = events[0] as Extract<ThreadEvent, { type: "ThreadForked" }>;
    expect(forked.data.inheritance.sourceRunOrdinal).toBe(1);
    expect(forked.data.inheritance.cutoffSortKey).toBe(s.state.maxItemSortKeyByRun.get(r1.runId));
  });

  it("forks at an explicit checkpoint; rejects missing checkpoints and checkpoints of running runs", () => {
    const { s, r1 } = source();
    given()
      .when(
        fork(s.threadId, {
          type: "checkpoint",
          checkpointId: r1.checkpointId ?? id("checkpoint", "none"),
        }),
        readThreads(s.state),
      )
      .then([
        {
          type: "ThreadForked",
          data: { inheritance: { sourcePoint: { checkpointId: r1.checkpointId } } },
        },
        { type: "ContextTransferCreated" },
      ]);
    given()
      .when(
        fork(s.threadId, { type: "checkpoint", checkpointId: id("checkpoint", "ghost") }),
        readThreads(s.state),
      )
      .thenFails("not_found");
    const r3 = s.queue("three");
    s.start(r3);
    const ckp = s.checkpoint(r3);
    given()
      .when(fork(s.threadId, { type: "checkpoint", checkpointId: ckp }), readThreads(s.state))
      .thenFails("precondition_failed");
  });

  it("subagent relationship records a subagent_spawn transfer created by an agent", () => {
    const { s } = source();
    given()
      .when(
        {
          ...fork(s.threadId),
          data: { ...fork(s.threadId).data, relationship: "subagent", createdBy: "agent" },
        },
        readThreads(s.state),
      )
      .then([
        {
          type: "ThreadForked",
          data: { thread: { lineage: { relationshipToParent: "subagent" } } },
        },
        {
          type: "ContextTransferCreated",
          data: { transfer: { type: "subagent_spawn", createdBy: "agent" } },
        },
      ]);
  });

  it("B19: an outside agent's fork records the agent on the fork, not the source's starter", () => {
    const { s } = source();
    const byAgent = {
      ...fork(s.threadId).data,
      createdBy: "agent" as const,
      agentName: "claude-code",
    };
    const { after } = given()
      .when({ type: "ForkThread", data: byAgent }, readThreads(s.state))
      .then([
        {
          type: "ThreadForked",
          data: { thread: { createdBy: "agent", agentName: "claude-code" } },
        },
        { type: "ContextTransferCreated", data: { transfer: { createdBy: "agent" } } },
      ]);
    // A person's fork of that agent's fork is the person's.
    const agentFork = new ThreadScenario("agentfork");
    agentFork.context = readThreads(s.state);
    agentFork.exec({ type: "ForkThread", data: { ...byAgent, threadId: agentFork.threadId } });
    const { after: personal } = given()
      .when(fork(agentFork.threadId), readThreads(agentFork.state))
      .then([{ type: "ThreadForked" }, { type: "ContextTransferCreated" }]);
    if (after.kind !== "thread" || personal.kind !== "thread") throw new Error("thread state");
    expect(after.thread?.agentName).toBe("claude-code");
    expect(personal.thread).not.toHaveProperty("createdBy");
    expect(personal.thread).not.toHaveProperty("agentName");
  });

  it("E2: a fork of a fork keeps the original root", () => {
    const { s } = source();
    const f1 = new ThreadScenario("f1");
    f1.context = readThreads(s.state);
    f1.exec({ ...fork(s.threadId), data: { ...fork(s.threadId).data, threadId: f1.threadId } });
    given()
      .when(fork(f1.threadId), readThreads(f1.state))
      .then([
        {
          type: "ThreadForked",
          data: { thread: { lineage: { parentThreadId: f1.threadId, rootThreadId: s.threadId } } },
        },
        { type: "ContextTransferCreated" },
      ]);
  });

  it("rejects an unknown source, an existing target and a self-fork", () => {
    const { s } = source();
    given().when(fork(s.threadId), {}).thenFails("not_found");
    given(s.events)
      .when(
        { ...fork(s.threadId), data: { ...fork(s.threadId).data, threadId: s.threadId } },
        readThreads(s.state),
      )
      .thenFails("conflict");
    given()
      .when(
        { ...fork(NEW), data: { ...fork(NEW).data, sourceThreadId: NEW } },
        readThreads(s.state),
      )
      .thenFails("validation");
  });
});

describe("UpdateThreadSettings", () => {
  it("changes only the given settings", () => {
    const s = new ThreadScenario().create();
    const { after } = given(s.events)
      .when({
        type: "UpdateThreadSettings",
        data: { threadId: s.threadId, title: "Renamed", defaultProvider: "claude" },
      })
      .then([
        {
          type: "ThreadSettingsUpdated",
          data: { changes: { title: "Renamed", defaultProvider: "claude" } },
        },
      ]);
    if (after.kind !== "thread") throw new Error("thread state expected");
    expect(after.thread?.title).toBe("Renamed");
    expect(after.thread?.runtimeMode).toBe("approval-required");
  });

  it("rejects an empty patch and an unknown thread", () => {
    const s = new ThreadScenario().create();
    given(s.events)
      .when({ type: "UpdateThreadSettings", data: { threadId: s.threadId } })
      .thenFails("validation");
    given()
      .when({ type: "UpdateThreadSettings", data: { threadId: NEW, title: "x" } })
      .thenFails("not_found");
  });
});

describe("ArchiveThread", () => {
  it("archives an idle thread; rejects twice, an active run and then new messages", () => {
    const s = new ThreadScenario().create();
    s.completedRun();
    const { events } = given(s.events)
      .when({ type: "ArchiveThread", data: { threadId: s.threadId } })
      .then([{ type: "ThreadArchived" }]);
    const archived = [...s.events, ...events];
    given(archived)
      .when({ type: "ArchiveThread", data: { threadId: s.threadId } })
      .thenFails("precondition_failed");
    given(archived)
      .when({
        type: "QueueRun",
        data: {
          threadId: s.threadId,
          runId: id("run", "x"),
          messageId: id("message", "x"),
          text: "hi",
          provider: "codex",
        },
      })
      .thenFails("precondition_failed", /archived/);
  });

  it("cancels every queued run with the archive and leaves the active run to be interrupted", () => {
    const busy = new ThreadScenario().create();
    const active = busy.queue();
    busy.start(active);
    const first = busy.queue();
    const second = busy.queue();
    const { after } = given(busy.events)
      .when({ type: "ArchiveThread", data: { threadId: busy.threadId } })
      .then([
        { type: "RunCancelled", data: { runId: first } },
        { type: "RunCancelled", data: { runId: second } },
        { type: "ThreadArchived" },
      ]);
    if (after.kind !== "thread") throw new Error("thread state expected");
    expect(after.queuedRunIds.size).toBe(0);
    expect(after.runs.get(first)?.status).toBe("cancelled");
    expect(after.activeRunId).toBe(active);
  });
});

describe("UnarchiveThread", () => {
  it("moves an archived thread back to active, where it takes messages again", () => {
    const s = new ThreadScenario().create();
    const { events } = given(s.events)
      .when({ type: "ArchiveThread", data: { threadId: s.threadId } })
      .then([{ type: "ThreadArchived" }]);
    const archived = [...s.events, ...events];
    const { events: back, after } = given(archived)
      .when({ type: "UnarchiveThread", data: { threadId: s.threadId } })
      .then([{ type: "ThreadUnarchived" }]);
    if (after.kind !== "thread") throw new Error("thread state expected");
    expect(after.thread?.archivedAt).toBeNull();
    given([...archived, ...back])
      .when({
        type: "QueueRun",
        data: {
          threadId: s.threadId,
          runId: id("run", "again"),
          messageId: id("message", "again"),
          text: "hi",
          provider: "codex",
        },
      })
      .then([{ type: "RunQueued" }]);
  });

  it("rejects a thread that is not archived and an unknown thread", () => {
    const s = new ThreadScenario().create();
    given(s.events)
      .when({ type: "UnarchiveThread", data: { threadId: s.threadId } })
      .thenFails("precondition_failed", /not archived/);
    given()
      .when({ type: "UnarchiveThread", data: { threadId: NEW } })
      .thenFails("not_found");
  });
});

describe("addressing", () => {
  it("a command for another thread decided against this stream is a validation error", () => {
    const s = new ThreadScenario().create();
    given(s.events)
      .when({ type: "ArchiveThread", data: { threadId: id("thread", "other") } })
      .thenFails("validation");
  });
});
