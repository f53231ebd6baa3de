import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;
afterEach(async () => {
  await t.close();
});

describe("T10: one thread takes part in many transfers, all of them ContextTransfer rows", () => {
  it("T10 E11: created by a fork, switched to another provider, source of a fork, target of its bring-back: four rows, each with its type, points and status", async () => {
    t = await startScriptedServer();
    const { projectId } = await t.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: t.workspaceDir,
    });
    const { threadId: source } = await t.client.thread.create.mutate({ projectId, title: "S" });
    const send = async (threadId: string, text: string, extra: object = {}) => {
      const provider = (extra as { provider?: "codex" | "claude" }).provider ?? "codex";
      t[provider].enqueue([{ type: "text", text: `re: ${text}` }]);
      const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text, ...extra });
      await t.orchestrator.waitForRun(runId);
    };
    await send(source, "start");
    const { threadId: middle } = await t.client.thread.fork.mutate({ threadId: source });
    await send(middle, "first on the fork", { provider: "codex" });
    await send(middle, "now on claude", { provider: "claude" });
    const { threadId: child } = await t.client.thread.fork.mutate({ threadId: middle });
    await send(child, "child work", { provider: "claude" });
    await send(middle, "bring it back", { provider: "claude", bringBackFrom: child });

    const graph = await t.client.thread.graph.query({ threadId: middle });
    const rows = graph.transfers
      .map((x) => ({
        type: x.type,
        from: x.sourceThreadId,
        to: x.targetThreadId,
        status: x.status,
        targetProvider: x.targetProvider,
      }))
      .sort((a, b) => a.type.localeCompare(b.type));
    expect(rows).toEqual([
      // T4: a fork names no provider; its first run's resolution does.
      { type: "fork", from: source, to: middle, status: "consumed", targetProvider: null },
      { type: "merge_back", from: child, to: middle, status: "consumed", targetProvider: "claude" },
      {
        type: "provider_handoff",
        from: middle,
        to: middle,
        status: "consumed",
        targetProvider: "claude",
      },
    ]);
    // The fork that made the child is the child's row; the browsing lineage stays light (E2).
    const childGraph = await t.client.thread.graph.query({ threadId: child });
    expect(childGraph.transfers.map((x) => [x.type, x.sourceThreadId])).toEqual([["fork", middle]]);
    expect(childGraph.thread.lineage).toMatchObject({
      parentThreadId: middle,
      rootThreadId: source,
    });
    const merge = graph.transfers.find((x) => x.type === "merge_back")!;
    expect(merge.basePoint?.threadId).toBe(middle);
    expect(merge.sourcePoint.threadId).toBe(child);
  });
});
