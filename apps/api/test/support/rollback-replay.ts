import { readFileSync, writeFileSync } from "node:fs";
import type { RunId, ThreadId } from "@skein/domain";
import { expect } from "vitest";
import type { CodexSkeinHarness } from "./codex-skein-harness.ts";

type Harness = Pick<CodexSkeinHarness, "orchestrator" | "store" | "thread">;
type Rollback = Parameters<Harness["orchestrator"]["rollback"]>[0] & { threadId: ThreadId };

/**
 * B3, after a later run: replaying the rollback's commandId answers the first receipt, and the
 * same id with another checkpoint is refused; neither touches the file, the log or the run.
 */
export async function expectRollbackReplayTouchesNothing(
  h: Harness,
  replay: { rollback: Rollback; applied: unknown; file: string; laterRunId: RunId },
): Promise<void> {
  const { rollback, applied, file, laterRunId } = replay;
  const content = readFileSync(file, "utf8");
  const head = await h.store.headSequence();

  expect(await h.orchestrator.rollback(rollback)).toEqual(applied);
  expect(readFileSync(file, "utf8")).toBe(content);
  expect(await h.store.headSequence()).toBe(head);
  expect((await h.thread(rollback.threadId)).runs.get(laterRunId)?.status).toBe("completed");

  const later = [...(await h.thread(rollback.threadId)).checkpoints.values()].find(
    (c) => c.runId === laterRunId,
  )!;
  await expect(
    h.orchestrator.rollback({ ...rollback, checkpointId: later.id }),
  ).rejects.toMatchObject({
    code: "conflict",
    message: expect.stringMatching(/thread\.rollback/),
  });
  expect(readFileSync(file, "utf8")).toBe(content);
  expect(await h.store.headSequence()).toBe(head);
}

/** Rolls the thread back to the checkpoint `runId` made, under `commandId`; returns the request and its answer. */
export async function rollbackToRun(
  h: Harness,
  target: { threadId: ThreadId; runId: RunId; commandId: string },
): Promise<{ rollback: Rollback; applied: unknown }> {
  const state = await h.thread(target.threadId);
  const checkpoint = [...state.checkpoints.values()].find((c) => c.runId === target.runId)!;
  const rollback = {
    threadId: target.threadId,
    checkpointId: checkpoint.id,
    commandId: target.commandId,
  };
  return { rollback, applied: await h.orchestrator.rollback(rollback) };
}

/**
 * B3's setup: `file` reads "one" after the thread's first run and "two" after its second; the
 * thread is then rolled back to its first run under `commandId`, which puts "one" back. `send`
 * runs one message on the thread to its end.
 */
export async function twoRunsRolledBack<Sent extends { runId: RunId }>(
  h: Harness,
  threadId: ThreadId,
  send: (text: string) => Promise<Sent>,
  target: { file: string; commandId: string },
) {
  writeFileSync(target.file, "one\n");
  const first = await send("message one");
  writeFileSync(target.file, "two\n");
  await send("message two");
  const { rollback, applied } = await rollbackToRun(h, {
    threadId,
    runId: first.runId,
    commandId: target.commandId,
  });
  expect(readFileSync(target.file, "utf8")).toBe("one\n");
  return { first, rollback, applied };
}
