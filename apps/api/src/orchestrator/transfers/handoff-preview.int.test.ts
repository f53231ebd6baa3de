import type { ContextTransferId, ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import {
  useHarness,
  type Harness,
  runMessage,
} from "../../../test/support/orchestrator-harness.ts";
import { readTransfer } from "../../read-models/transfer.ts";

const harness = useHarness();

/** Every model-visible input a scripted provider received, in order. */
function turnInputs(h: Harness, provider: "codex" | "claude") {
  const p = provider === "codex" ? h.codex : h.claude;
  return p.calls
    .filter((c) => c.op === "startTurn")
    .map((c) => (c.args as { input: { text: string; context?: { text: string } | null } }).input);
}

/** A Codex thread with two completed runs and a fork of its latest run. */
async function forked(h: Harness) {
  const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
  await runMessage(h, threadId, "message 1");
  await runMessage(h, threadId, "message 2");
  const fork = await h.orchestrator.forkThread({ threadId });
  return { source: threadId, fork: fork.threadId, transferId: fork.transferId };
}

async function handoffOf(h: Harness, threadId: ThreadId, handoffId: string) {
  return (await h.thread(threadId)).handoffs.get(handoffId as never)!;
}

async function transferOf(h: Harness, threadId: ThreadId, transferId: ContextTransferId) {
  return (await h.thread(threadId)).transfers.get(transferId)!;
}

describe("handoff preview before the transfer is consumed (issue 8)", () => {
  it("a fork's handoff is previewed, edited, and the first run sends exactly the edited text", async () => {
    const h = await harness();
    const { fork, transferId } = await forked(h);
    const callsBefore = h.codex.calls.length + h.claude.calls.length;

    const preview = await h.orchestrator.regenerateHandoff({ transferId, provider: "claude" });
    const previewed = await handoffOf(h, fork, preview.handoffId);
    expect(previewed).toMatchObject({
      status: "ready",
      strategy: "full_thread_summary",
      targetRunId: null,
      toProviderThreadId: null,
    });
    expect(previewed.payload.targetProvider).toBe("claude");
    expect(previewed.summaryText).toContain("message 2");
    // A preview is built from the log only: still no provider work for the fork (T1, T4).
    expect(h.codex.calls.length + h.claude.calls.length).toBe(callsBefore);
    expect((await transferOf(h, fork, transferId)).status).toBe("pending");
    // transfer.get (the inspector's read) shows the preview from the projection rows.
    const view = (await h.store.snapshot((q) => readTransfer(q, transferId))).data;
    expect(view.handoff).toMatchObject({ id: preview.handoffId, targetRunId: null });

    const edited = "Only keep this: we chose plan B and the tests are green.";
    const edit = await h.orchestrator.editHandoff({ transferId, text: edited });
    expect((await handoffOf(h, fork, preview.handoffId)).status).toBe("superseded");

    const { run, state } = await runMessage(h, fork, "continue on claude", { provider: "claude" });
    expect(run.status).toBe("completed");
    const [input] = turnInputs(h, "claude");
    expect(input?.context?.text).toBe(edited);
    expect(input?.text).toBe("continue on claude");
    const transfer = state.transfers.get(transferId)!;
    expect(transfer).toMatchObject({
      status: "consumed",
      consumedByRunId: run.id,
      resolution: { strategy: "portable_context", contextHandoffId: edit.handoffId },
    });
    const used = state.handoffs.get(edit.handoffId)!;
    expect(used).toMatchObject({
      strategy: "manual_context",
      summaryText: edited,
      targetRunId: run.id,
      toProviderThreadId: run.providerThreadId,
    });
    expect(run.contextHandoffId).toBe(edit.handoffId);
    expect(state.providerThreads.get(run.providerThreadId!)?.handoffIds).toContain(edit.handoffId);

    // Consumed: what the target received is now a record, not a draft.
    await expect(
      h.orchestrator.editHandoff({ transferId, text: "too late" }),
    ).rejects.toMatchObject({ code: "conflict" });
    await expect(h.orchestrator.regenerateHandoff({ transferId })).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("an edit without a preview wins over the native fork the same provider could do", async () => {
    const h = await harness();
    const { fork, transferId } = await forked(h);
    const edited = "Start over from the README; ignore the earlier discussion.";
    const edit = await h.orchestrator.editHandoff({ transferId, text: edited });
    expect(await handoffOf(h, fork, edit.handoffId)).toMatchObject({
      strategy: "manual_context",
      kind: "portable_context",
      coveredRunOrdinals: { from: 1, to: 2 },
    });
    const { state } = await runMessage(h, fork, "on codex again", { provider: "codex" });
    expect(h.codex.calls.some((c) => c.op === "forkThread")).toBe(false);
    expect(turnInputs(h, "codex").at(-1)?.context?.text).toBe(edited);
    expect(state.transfers.get(transferId)?.resolution).toEqual({
      strategy: "portable_context",
      contextHandoffId: edit.handoffId,
    });
  });

  it("a generated preview for the run's provider is sent as-is (same handoff id)", async () => {
    const h = await harness();
    const { fork, transferId } = await forked(h);
    const preview = await h.orchestrator.regenerateHandoff({ transferId, provider: "claude" });
    const text = (await handoffOf(h, fork, preview.handoffId)).summaryText;
    const { run, state } = await runMessage(h, fork, "go on", { provider: "claude" });
    expect(state.handoffs.size).toBe(1);
    expect(run.contextHandoffId).toBe(preview.handoffId);
    expect(state.transfers.get(transferId)).toMatchObject({
      status: "consumed",
      resolution: { strategy: "portable_context", contextHandoffId: preview.handoffId },
    });
    expect(state.handoffs.get(preview.handoffId)).toMatchObject({
      status: "ready",
      targetRunId: run.id,
      toProviderThreadId: run.providerThreadId,
    });
    expect(turnInputs(h, "claude")[0]?.context?.text).toBe(text);
  });

  it("a preview for another provider is superseded and the run builds its own handoff", async () => {
    const h = await harness({ capabilities: { codex: { nativeFork: false } } });
    const { fork, transferId } = await forked(h);
    const preview = await h.orchestrator.regenerateHandoff({ transferId, provider: "codex" });
    const { run, state } = await runMessage(h, fork, "on claude", { provider: "claude" });
    expect(run.contextHandoffId).toBeTruthy();
    expect(run.contextHandoffId).not.toBe(preview.handoffId);
    expect(state.handoffs.get(preview.handoffId)?.status).toBe("superseded");
    const built = state.handoffs.get(run.contextHandoffId!)!;
    expect(built.payload.targetProvider).toBe("claude");
    expect(state.transfers.get(transferId)?.resolution).toMatchObject({
      contextHandoffId: built.id,
    });
    expect(turnInputs(h, "claude")[0]?.context?.text).toBe(built.summaryText);
  });

  it("a native fork still wins over an unedited preview, which is superseded", async () => {
    const h = await harness();
    const { fork, transferId } = await forked(h);
    const preview = await h.orchestrator.regenerateHandoff({ transferId });
    expect((await handoffOf(h, fork, preview.handoffId)).payload.targetProvider).toBe("codex");
    const { run, state } = await runMessage(h, fork, "native please", { provider: "codex" });
    expect(run.status).toBe("completed");
    expect(h.codex.calls.some((c) => c.op === "forkThread")).toBe(true);
    expect(state.transfers.get(transferId)?.resolution?.strategy).toBe("native_fork");
    expect(state.handoffs.get(preview.handoffId)?.status).toBe("superseded");
    expect(turnInputs(h, "codex").at(-1)?.context ?? null).toBeNull();
  });

  it("regenerating a preview for another provider replaces it; a second preview is never added", async () => {
    const h = await harness();
    const { fork, transferId } = await forked(h);
    const first = await h.orchestrator.regenerateHandoff({ transferId, provider: "claude" });
    const second = await h.orchestrator.regenerateHandoff({ transferId, provider: "codex" });
    const state = await h.thread(fork);
    expect(state.handoffs.get(first.handoffId)?.status).toBe("superseded");
    expect(state.handoffs.get(second.handoffId)?.payload.targetProvider).toBe("codex");
    expect([...state.handoffs.values()].filter((x) => x.status !== "superseded")).toHaveLength(1);
  });
});
