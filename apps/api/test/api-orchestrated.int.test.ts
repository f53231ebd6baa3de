import { threadStreamId } from "@skein/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RouterOutputs } from "@skein/contract";
import { refusal } from "./support/errors.ts";
import { Recorder } from "./support/recorder.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

type DetailSnapshot = RouterOutputs["thread"]["detail"];

let t: ScriptedTestServer;
const cleanups: (() => unknown)[] = [];

beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await t.close();
});

async function project() {
  return t.client.project.create.mutate({ name: "Demo", workspaceRoot: t.workspaceDir });
}

/** Waits (through the subscription) until the run reaches a terminal status. */
async function settled(recorder: Recorder<DetailSnapshot>, runId: string) {
  await recorder.until(
    () =>
      recorder.events.some(
        (e) =>
          (e.type === "RunFinished" || e.type === "RunRecovered") &&
          (e.data as { runId?: string } | undefined)?.runId === runId,
      ),
    15_000,
    `run ${runId} to settle`,
  );
}

async function runStatus(threadId: string, runId: string) {
  const detail = await t.client.thread.detail.query({ threadId });
  return detail.runs.find((run) => run.id === runId)?.status;
}

describe("the typed client over HTTP drives the real orchestrator", () => {
  it("message → watch it complete → fork (T1) → native fork on first send → Claude → bring back (T8)", async () => {
    const { projectId } = await project();
    const { threadId } = await t.client.thread.create.mutate({ projectId, provider: "codex" });

    const recorder = new Recorder<DetailSnapshot>();
    const sub = t.client.thread.watchDetail.subscribe({ threadId }, recorder.handlers);
    cleanups.push(() => sub.unsubscribe());
    await recorder.until(() => recorder.snapshots.length === 1);

    t.codex.enqueue([{ type: "text", text: "hello from codex", chunks: 4 }]);
    const sent = await t.client.thread.sendMessage.mutate({ threadId, text: "hi" });
    expect(sent.sequence).toBeGreaterThan(recorder.snapshots[0]!.snapshotSequence);
    await settled(recorder, sent.runId);
    expect(await runStatus(threadId, sent.runId)).toBe("completed");
    const events = recorder.events;
    expect(events.map((e) => e.sequence)).toEqual(
      (await t.store.readStream(threadStreamId(threadId), recorder.snapshots[0]!.snapshotSequence))
        .map((e) => e.sequence)
        .slice(0, events.length),
    );

    const fork = await t.client.thread.fork.mutate({
      threadId,
      sourcePoint: { type: "latest_stable" },
    });
    const forkGraph = await t.client.thread.graph.query({ threadId: fork.threadId });
    expect(forkGraph.providerThreads).toEqual([]);
    expect(forkGraph.providerSessions).toEqual([]);
    expect(forkGraph.providerTurns).toEqual([]);

    const forkWatch = new Recorder<DetailSnapshot>();
    const forkSub = t.client.thread.watchDetail.subscribe(
      { threadId: fork.threadId },
      forkWatch.handlers,
    );
    cleanups.push(() => forkSub.unsubscribe());
    await forkWatch.until(() => forkWatch.snapshots.length === 1);
    const onFork = await t.client.thread.sendMessage.mutate({
      threadId: fork.threadId,
      text: "continue on the fork",
    });
    await settled(forkWatch, onFork.runId);
    const transfer = await t.client.transfer.get.query({ transferId: fork.transferId });
    expect(transfer.transfer.status).toBe("consumed");
    expect(transfer.transfer.resolution?.strategy).toBe("native_fork");

    const onClaude = await t.client.thread.sendMessage.mutate({
      threadId: fork.threadId,
      text: "now on claude",
      provider: "claude",
    });
    await settled(forkWatch, onClaude.runId);
    expect(await runStatus(fork.threadId, onClaude.runId)).toBe("completed");
    const forkDetail = await t.client.thread.detail.query({ threadId: fork.threadId });
    expect(forkDetail.runs.map((run) => run.provider)).toEqual(["codex", "claude"]);

    const back = await t.client.thread.sendMessage.mutate({
      threadId,
      text: "bring it back",
      bringBackFrom: fork.threadId,
    });
    await settled(recorder, back.runId);
    expect(await runStatus(threadId, back.runId)).toBe("completed");
    const source = await t.client.thread.detail.query({ threadId });
    const mergeBack = source.transfers.find((x) => x.type === "merge_back");
    expect(mergeBack).toMatchObject({ sourceThreadId: fork.threadId, status: "consumed" });
    const mergeView = await t.client.transfer.get.query({ transferId: mergeBack!.id });
    expect(mergeView.handoff?.kind).toBe("delta_context");
    expect(source.runs.map((run) => run.provider)).toEqual(["codex", "codex"]);
  });

  it("S4: a mutation retried with the same commandId returns the same receipt, appends nothing", async () => {
    const { projectId } = await project();
    const { threadId } = await t.client.thread.create.mutate({ projectId });
    const before = await t.store.headSequence();
    const first = await t.client.thread.sendMessage.mutate({
      threadId,
      text: "once",
      commandId: "cmd_api_retry",
    });
    const head = await t.store.headSequence();
    const again = await t.client.thread.sendMessage.mutate({
      threadId,
      text: "once",
      commandId: "cmd_api_retry",
    });
    expect(again).toEqual(first);
    const after = await t.store.readAll(before);
    expect(after.filter((e) => e.type === "RunQueued")).toHaveLength(1);
    expect(head).toBeGreaterThanOrEqual(first.sequence);
  });

  it("bad input against the real orchestrator: documented codes, log head unchanged", async () => {
    const { projectId } = await project();
    const { threadId } = await t.client.thread.create.mutate({ projectId });
    const head = await t.store.headSequence();
    expect((await refusal(t.client.thread.create.mutate({ projectId: "bad" as never }))).code).toBe(
      "BAD_REQUEST",
    );
    expect(
      (
        await refusal(
          t.client.thread.sendMessage.mutate({ threadId: "thr_nope" as never, text: "x" }),
        )
      ).code,
    ).toBe("NOT_FOUND");
    expect(
      (
        await refusal(
          t.client.thread.fork.mutate({
            threadId,
            sourcePoint: { type: "run", runId: "run_missing" as never },
          }),
        )
      ).code,
    ).toBe("NOT_FOUND");
    expect(
      (await refusal(t.client.thread.sendMessage.mutate({ threadId, text: "x".repeat(10 << 20) })))
        .code,
    ).toBe("PAYLOAD_TOO_LARGE");
    expect(await t.store.headSequence()).toBe(head);
  });
});
