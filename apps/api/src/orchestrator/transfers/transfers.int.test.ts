import { type RunId, type ThreadId, threadStreamId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import {
  useHarness,
  eventually,
  type Harness,
  runMessage,
} from "../../../test/support/orchestrator-harness.ts";

const harness = useHarness();

const providerCalls = (h: Harness) => h.codex.calls.length + h.claude.calls.length;

async function threadWithRuns(h: Harness, count: number, provider: "codex" | "claude" = "codex") {
  const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId, provider });
  for (let i = 1; i <= count; i += 1) await runMessage(h, threadId, `message ${i}`, { provider });
  return threadId;
}

/** Every model-visible input a scripted provider received, in order. */
function turnInputs(h: Harness, provider: "codex" | "claude") {
  const p = provider === "codex" ? h.codex : h.claude;
  return p.calls
    .filter((c) => c.op === "startTurn")
    .map((c) => (c.args as { input: { text: string; context?: { text: string } | null } }).input);
}

describe("lazy context transfer through the orchestrator", () => {
  it("T1: fork creates a pending transfer and no provider session, thread, turn or handoff", async () => {
    const h = await harness();
    const source = await threadWithRuns(h, 2);
    const callsBefore = providerCalls(h);
    const sessionsBefore = await h.store.snapshot((q) => q.count("provider_sessions"));
    const fork = await h.orchestrator.forkThread({ threadId: source });
    expect(providerCalls(h)).toBe(callsBefore);
    const state = await h.thread(fork.threadId);
    expect(state.thread?.lineage).toMatchObject({
      parentThreadId: source,
      relationshipToParent: "fork",
    });
    expect(state.transfers.get(fork.transferId)).toMatchObject({ type: "fork", status: "pending" });
    expect(state.providerThreads.size + state.providerTurns.size + state.handoffs.size).toBe(0);
    const sessionsAfter = await h.store.snapshot((q) => q.count("provider_sessions"));
    expect(sessionsAfter.data).toBe(sessionsBefore.data);
  });

  it("T2: a fork at an in-progress run is rejected; latest_stable picks the latest completed run", async () => {
    const h = await harness();
    const source = await threadWithRuns(h, 2);
    h.codex.enqueue([{ type: "wait", ms: 10_000 }]);
    const { runId } = await h.orchestrator.sendMessage({ threadId: source, text: "slow" });
    await eventually(async () =>
      expect((await h.thread(source)).runs.get(runId)?.status).toBe("running"),
    );
    const head = await h.store.headSequence();
    await expect(
      h.orchestrator.forkThread({ threadId: source, sourcePoint: { type: "run", runId } }),
    ).rejects.toMatchObject({
      code: expect.stringMatching(/precondition_failed|conflict|invalid_transition/),
    });
    expect(await h.store.headSequence()).toBe(head);
    const fork = await h.orchestrator.forkThread({ threadId: source });
    const transfer = (await h.thread(fork.threadId)).transfers.get(fork.transferId)!;
    const secondRun = (await h.thread(source)).runOrder[1];
    expect(transfer.sourcePoint.runId).toBe(secondRun);
    await h.orchestrator.interrupt({ threadId: source });
  });

  it("T3/T4: same provider with native fork → resolved_native then consumed; the fork keeps only runs up to the source point", async () => {
    const h = await harness();
    const source = await threadWithRuns(h, 2);
    const firstRun = (await h.thread(source)).runOrder[0]!;
    const fork = await h.orchestrator.forkThread({
      threadId: source,
      sourcePoint: { type: "run", runId: firstRun },
    });
    await runMessage(h, fork.threadId, "on the fork", { provider: "codex" });
    const state = await h.thread(fork.threadId);
    const transfer = state.transfers.get(fork.transferId)!;
    expect(transfer.status).toBe("consumed");
    expect(transfer.resolution?.strategy).toBe("native_fork");
    expect(state.handoffs.size).toBe(0);
    const forkCall = h.codex.calls.find((c) => c.op === "forkThread");
    expect(forkCall).toBeDefined();
    const forkedRef = (transfer.resolution as { providerThreadRef: string }).providerThreadRef;
    const session = h.codex.sessions.at(-1)!;
    const history = await session.readHistory(forkedRef);
    expect(history.map((t) => t.userText)).toEqual(["message 1", "on the fork"]);
  });

  it("T3/T4: another provider → a ready handoff, resolved_portable then consumed, sent with the message", async () => {
    const h = await harness();
    const source = await threadWithRuns(h, 2);
    const fork = await h.orchestrator.forkThread({ threadId: source });
    await runMessage(h, fork.threadId, "continue on claude", { provider: "claude" });
    const state = await h.thread(fork.threadId);
    const transfer = state.transfers.get(fork.transferId)!;
    expect(transfer.status).toBe("consumed");
    expect(transfer.resolution?.strategy).toBe("portable_context");
    const handoff = [...state.handoffs.values()][0]!;
    expect(handoff).toMatchObject({ status: "ready", strategy: "full_thread_summary" });
    const [input] = turnInputs(h, "claude");
    expect(input?.context?.text).toBe(handoff.summaryText);
    expect(handoff.summaryText).toContain("message 1");
    expect(handoff.summaryText).toContain("message 2");
    expect([...state.turnItems.values()].some((e) => e.item.type === "handoff")).toBe(true);
  });

  it("T3: a forced native fork failure falls back to a portable handoff and the transfer records it", async () => {
    const h = await harness();
    const source = await threadWithRuns(h, 1);
    const fork = await h.orchestrator.forkThread({ threadId: source });
    h.codex.failNext("fork");
    const { run } = await runMessage(h, fork.threadId, "try native", { provider: "codex" });
    expect(run.status).toBe("completed");
    const transfer = (await h.thread(fork.threadId)).transfers.get(fork.transferId)!;
    expect(transfer.status).toBe("consumed");
    expect(transfer.resolution?.strategy).toBe("portable_context");
    expect(transfer.fallback).toMatchObject({ from: "native_fork" });
  });

  it("T5: none — a second run on the same provider thread needs no transfer", async () => {
    const h = await harness();
    const threadId = await threadWithRuns(h, 2);
    const state = await h.thread(threadId);
    expect(state.transfers.size).toBe(0);
    expect(state.providerThreads.size).toBe(1);
    expect(turnInputs(h, "codex").map((i) => i.context ?? null)).toEqual([null, null]);
  });

  it("T5: unsupported fails the run before any provider call", async () => {
    const h = await harness();
    const threadId = await threadWithRuns(h, 1);
    const state = await h.thread(threadId);
    // A pending switch transfer that names Claude as its target; the next run asks for Codex.
    await h.orchestrator.repository.execute({
      type: "CreateContextTransfer",
      data: {
        threadId,
        transferId: "ctx_pending_switch" as never,
        type: "provider_handoff",
        sourceThreadId: threadId,
        sourcePoint: {
          threadId,
          runId: state.runOrder[0]!,
          checkpointId: null,
          turnItemId: null,
          providerThreadRef: null,
          providerTurnRef: null,
        },
        sourceProvider: "codex",
        targetProvider: "claude",
        createdBy: "user",
      },
    });
    const callsBefore = h.codex.calls.length;
    const { run } = await runMessage(h, threadId, "on codex", { provider: "codex" });
    expect(run.status).toBe("failed");
    expect(run.error).toBeTruthy();
    expect(h.codex.calls.slice(callsBefore).filter((c) => c.op !== "openSession")).toEqual([]);
  });

  it("T6/T7: runs 1–5 on A, 6–8 on B, run 9 back on A → delta covering exactly 6–8 on A's provider thread", async () => {
    const h = await harness();
    const threadId = await threadWithRuns(h, 5, "codex");
    for (let i = 6; i <= 8; i += 1)
      await runMessage(h, threadId, `message ${i}`, { provider: "claude" });
    const afterB = await h.thread(threadId);
    const switchHandoff = [...afterB.handoffs.values()][0]!;
    expect(switchHandoff.strategy).toBe("full_thread_summary");
    expect(switchHandoff.coveredRunOrdinals).toEqual({ from: 1, to: 5 });
    const switchTransfer = afterB.transfers.get(switchHandoff.transferId)!;
    expect(switchTransfer).toMatchObject({
      type: "provider_handoff",
      sourceThreadId: threadId,
      targetThreadId: threadId,
    });
    const codexThread = [...afterB.providerThreads.values()].find((p) => p.provider === "codex")!;

    const { run } = await runMessage(h, threadId, "message 9", { provider: "codex" });
    const state = await h.thread(threadId);
    expect(run.providerThreadId).toBe(codexThread.id);
    const delta = state.handoffs.get(run.contextHandoffId!)!;
    expect(delta.strategy).toBe("delta_since_target_last_seen");
    expect(delta.coveredRunOrdinals).toEqual({ from: 6, to: 8 });
    expect(delta.summaryText).toContain("message 7");
    expect(delta.summaryText).not.toContain("message 3");
  });

  it("T7: when resume fails, returning to A uses a full_thread_summary on a new provider thread", async () => {
    const h = await harness();
    const threadId = await threadWithRuns(h, 2, "codex");
    await runMessage(h, threadId, "message 3", { provider: "claude" });
    const codexThread = [...(await h.thread(threadId)).providerThreads.values()].find(
      (p) => p.provider === "codex",
    )!;
    h.codex.killAll();
    h.codex.failNext("resume");
    const { run } = await runMessage(h, threadId, "message 4", { provider: "codex" });
    expect(run.status).toBe("completed");
    expect(run.providerThreadId).not.toBe(codexThread.id);
    const handoff = (await h.thread(threadId)).handoffs.get(run.contextHandoffId!)!;
    expect(handoff.strategy).toBe("full_thread_summary");
    expect(handoff.coveredRunOrdinals).toEqual({ from: 1, to: 3 });
  });

  it("T7: a provider thread that cannot be resumed is rebuilt on the same provider from a full summary", async () => {
    const h = await harness();
    const threadId = await threadWithRuns(h, 2, "codex");
    const before = [...(await h.thread(threadId)).providerThreads.values()][0]!;
    h.codex.killAll();
    h.codex.failNext("resume");
    const { run } = await runMessage(h, threadId, "message 3", { provider: "codex" });
    expect(run.status).toBe("completed");
    expect(run.providerThreadId).not.toBe(before.id);
    const state = await h.thread(threadId);
    const handoff = state.handoffs.get(run.contextHandoffId!)!;
    expect(handoff).toMatchObject({
      strategy: "full_thread_summary",
      coveredRunOrdinals: { from: 1, to: 2 },
    });
    expect(state.transfers.get(handoff.transferId)).toMatchObject({
      type: "provider_handoff",
      sourceProvider: "codex",
      targetProvider: "codex",
      status: "consumed",
    });
  });

  it("T8: bring-back delta covers exactly the fork's runs after its source point; the source keeps its provider", async () => {
    const h = await harness();
    const source = await threadWithRuns(h, 2, "codex");
    const fork = await h.orchestrator.forkThread({ threadId: source });
    await runMessage(h, fork.threadId, "fork idea A", { provider: "claude" });
    await runMessage(h, fork.threadId, "fork idea B", { provider: "claude" });
    const { run } = await runMessage(h, source, "bring it back", { bringBackFrom: fork.threadId });
    expect(run.provider).toBe("codex");
    const state = await h.thread(source);
    expect(state.thread?.defaultProvider).toBe("codex");
    const handoff = state.handoffs.get(run.contextHandoffId!)!;
    const transfer = state.transfers.get(handoff.transferId)!;
    expect(transfer).toMatchObject({
      type: "merge_back",
      sourceThreadId: fork.threadId,
      status: "consumed",
    });
    expect(handoff.summaryText).toContain("fork idea A");
    expect(handoff.summaryText).toContain("fork idea B");
    expect(handoff.summaryText).not.toContain("message 1");
    const covered = handoff.payload.coverage.flatMap((c) => c.runs);
    expect(covered).toHaveLength(1);
  });

  it("T2/T8: a bring-back sent the moment the fork's run finishes carries that run (its checkpoint is awaited)", async () => {
    const h = await harness();
    const source = await threadWithRuns(h, 1, "codex");
    const fork = await h.orchestrator.forkThread({ threadId: source });
    await runMessage(h, fork.threadId, "fork idea A", { provider: "claude" });
    const feed = h.store.subscribe({
      afterSequence: await h.store.headSequence(),
      filter: { streamIds: [threadStreamId(fork.threadId)] },
    });
    const last = await h.orchestrator.sendMessage({
      threadId: fork.threadId,
      text: "fork idea B",
      provider: "claude",
    });
    let bringBack: Promise<{ runId: RunId }> | null = null;
    for await (const event of feed) {
      if (event.type !== "RunFinished" || (event.data as { runId: string }).runId !== last.runId) {
        continue;
      }
      // Right after the commit, before the run's checkpoint capture has been recorded.
      bringBack = h.orchestrator.sendMessage({
        threadId: source,
        text: "bring it back",
        bringBackFrom: fork.threadId,
      });
      break;
    }
    feed.close();
    const { runId } = await bringBack!;
    await h.orchestrator.waitForRun(runId);
    const state = await h.thread(source);
    const run = state.runs.get(runId)!;
    const handoff = state.handoffs.get(run.contextHandoffId!)!;
    expect(state.transfers.get(handoff.transferId)?.sourcePoint.runId).toBe(last.runId);
    expect(handoff.summaryText).toContain("fork idea A");
    expect(handoff.summaryText).toContain("fork idea B");
  });

  it("T9: the delegate tool runs a child thread on another provider and returns its answer", async () => {
    const h = await harness();
    h.claude.enqueue([{ type: "text", text: "child says 42" }]);
    h.codex.enqueue([
      {
        type: "app_tool",
        toolName: "skein_delegate",
        input: { provider: "claude", prompt: "compute the answer" },
      },
      { type: "text", text: "parent done" },
    ]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { run, state } = await runMessage(h, threadId, "delegate please");
    expect(run.status).toBe("completed");
    const tool = [...state.turnItems.values()].find((e) => e.item.type === "dynamic_tool")?.item;
    expect(tool).toMatchObject({ toolName: "skein_delegate", output: "child says 42" });
    const result = [...state.transfers.values()].find((t) => t.type === "subagent_result")!;
    expect(result).toMatchObject({ status: "consumed" });
    const childId = result.sourceThreadId as ThreadId;
    const child = await h.thread(childId);
    expect(child.thread?.lineage).toMatchObject({
      parentThreadId: threadId,
      relationshipToParent: "subagent",
    });
    expect([...child.transfers.values()].map((t) => t.type)).toEqual(["subagent_spawn"]);
    // The child's messages live in the child thread, not in the parent's items.
    const parentTexts = [...state.turnItems.values()].map((e) =>
      "text" in e.item ? e.item.text : "",
    );
    expect(parentTexts).not.toContain("child says 42");
  });

  it("T9: native subagent work becomes child nodes hidden from turnItems but kept in the graph", async () => {
    const h = await harness();
    h.codex.enqueue([
      {
        type: "subagent",
        description: "explore",
        steps: [{ type: "text", text: "child finding" }],
      },
      { type: "text", text: "summary" },
    ]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { state } = await runMessage(h, threadId, "use a subagent");
    const subagent = [...state.nodes.values()].find((n) => n.kind === "subagent")!;
    const children = [...state.nodes.values()].filter((n) => n.parentNodeId === subagent.id);
    expect(children.map((n) => n.kind)).toEqual(["assistant_message"]);
    const texts = [...state.turnItems.values()].map((e) => ("text" in e.item ? e.item.text : null));
    expect(texts).toContain("summary");
    expect(texts).not.toContain("child finding");
  });
});
