import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;

beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

async function newThread(runtimeMode?: "approval-required" | "full-access") {
  const { projectId } = await t.client.project.create.mutate({
    name: "Demo",
    workspaceRoot: t.workspaceDir,
  });
  const { threadId } = await t.client.thread.create.mutate({
    projectId,
    title: "Main",
    ...(runtimeMode ? { runtimeMode } : {}),
  });
  return { projectId, threadId };
}

async function run(threadId: string, text: string) {
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text });
  await t.orchestrator.waitForRun(runId);
  return runId;
}

async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe("read side: each query is one snapshot with its sequence", () => {
  it("P7: a fork's visibleTurnItems read the source's rows by reference, up to the fork point", async () => {
    const { threadId } = await newThread();
    await run(threadId, "first");
    const before = await t.client.thread.detail.query({ threadId });
    const fork = await t.client.thread.fork.mutate({
      threadId,
      sourcePoint: { type: "latest_stable" },
      title: "Fork",
    });
    await run(threadId, "second"); // the source moves on; the fork must not see it

    const detail = await t.client.thread.detail.query({ threadId: fork.threadId });
    expect(detail.snapshotSequence).toBeLessThanOrEqual(await t.store.headSequence());
    expect(detail.thread.lineage?.parentThreadId).toBe(threadId);
    expect(detail.turnItems.map((item) => item.type)).toEqual(["fork"]);
    expect(detail.visibleTurnItems).toEqual([
      ...(before.visibleTurnItems ?? before.turnItems),
      detail.turnItems[0],
    ]);
    expect((before.visibleTurnItems ?? before.turnItems).length).toBeGreaterThanOrEqual(2);
    expect(detail.transfers.map((x) => x.id)).toEqual([fork.transferId]);

    // Forks of forks recurse through the chain.
    const grandchild = await t.client.thread.fork.mutate({ threadId: fork.threadId });
    const nested = await t.client.thread.detail.query({ threadId: grandchild.threadId });
    expect(nested.visibleTurnItems).toEqual([
      ...(detail.visibleTurnItems ?? []),
      nested.turnItems[0],
    ]);
  });

  it("T1 via the graph: a fork has no provider session, thread or turn; the source has them", async () => {
    const { threadId } = await newThread();
    const runId = await run(threadId, "hi");
    const fork = await t.client.thread.fork.mutate({ threadId });

    const forkGraph = await t.client.thread.graph.query({ threadId: fork.threadId });
    expect(forkGraph).toMatchObject({
      runs: [],
      nodes: [],
      providerSessions: [],
      providerThreads: [],
      providerTurns: [],
      handoffs: [],
    });
    expect(forkGraph.transfers.map((x) => x.status)).toEqual(["pending"]);

    const graph = await t.client.thread.graph.query({ threadId });
    expect(graph.runs.map((r) => r.run.id)).toEqual([runId]);
    const attempt = graph.runs[0]?.attempts[0];
    expect(attempt?.root?.node.kind).toBe("root_turn");
    expect(attempt?.providerTurn?.status).toBe("completed");
    expect(graph.nodes[0]?.kind).toBe("root_turn");
    expect(graph.providerThreads).toHaveLength(1);
    expect(graph.providerSessions.map((s) => s.provider)).toEqual(["codex"]);
    expect(graph.providerTurns).toHaveLength(1);

    const transfer = await t.client.transfer.get.query({ transferId: fork.transferId });
    expect(transfer.transfer).toMatchObject({
      id: fork.transferId,
      type: "fork",
      status: "pending",
      sourceThreadId: threadId,
      targetThreadId: fork.threadId,
    });
    expect(transfer.handoff).toBeNull();
    expect(transfer.handoffs).toEqual([]);
  });

  it("P5: a pending approval shows in the detail as answerable; request.respond resolves it", async () => {
    const { threadId } = await newThread("approval-required");
    t.codex.enqueue([{ type: "command", command: "ls", output: "a.txt\n", approval: true }]);
    const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "list" });
    const pending = await eventually(async () => {
      const detail = await t.client.thread.detail.query({ threadId });
      expect(detail.pendingRequests).toHaveLength(1);
      return detail.pendingRequests[0]!;
    });
    expect(pending).toMatchObject({ kind: "command", status: "pending", answerable: true });
    const shells = await t.client.thread.shells.query();
    expect(shells.threads.find((s) => s.id === threadId)?.status).toBe("waiting");

    const receipt = await t.client.request.respond.mutate({
      requestId: pending.id,
      decision: "accept",
    });
    expect(receipt.sequence).toBeGreaterThan(0);
    await t.orchestrator.waitForRun(runId);
    const after = await t.client.thread.detail.query({ threadId });
    expect(after.pendingRequests).toEqual([]);
    expect(after.runs[0]?.status).toBe("completed");
  });

  it("project.list and thread.shells follow commands; archived threads leave the sidebar", async () => {
    const { projectId, threadId } = await newThread();
    const other = await t.client.thread.create.mutate({ projectId, title: "Archive me" });
    await t.client.thread.archive.mutate({ threadId: other.threadId });
    const projects = await t.client.project.list.query();
    expect(projects.projects).toEqual([
      expect.objectContaining({ id: projectId, title: "Demo", workspaceRoot: t.workspaceDir }),
    ]);
    const shells = await t.client.thread.shells.query();
    expect(shells.threads.map((s) => s.id)).toEqual([threadId]);
    expect(shells.snapshotSequence).toBe(await t.store.headSequence());
  });
});
