import type { EventStore, RawLogReader, StoredEvent } from "@skein/db";
import type { RunId, ThreadId, ThreadState, TurnItem } from "@skein/domain";
import { expect } from "vitest";
import { readRawFrames } from "../../src/read-models/raw-frames.ts";

/** Waits for the run's one pending request and accepts it. */
export async function acceptPending(
  orchestrator: { respondToRequest(input: { requestId: never; decision: "accept" }): unknown },
  state: () => Promise<ThreadState>,
  until: <T>(check: () => Promise<T>, ms: number) => Promise<T>,
): Promise<void> {
  const request = await until(async () => {
    const pending = [...(await state()).requests.values()].find((r) => r.status === "pending");
    if (!pending) throw new Error("no pending request yet");
    return pending;
  }, 30_000);
  await orchestrator.respondToRequest({ requestId: request.id as never, decision: "accept" });
}

/**
 * B8 on a real runtime's run: every raw record of the run carries observedAt; a record that led to
 * events carries their sequences (and those events name it); every provider item keeps a range
 * whose first frame is the one that started its node. Returns the items checked.
 */
export async function expectItemsLeadToTheirFrames(
  store: EventStore,
  rawLog: RawLogReader,
  state: ThreadState,
  threadId: ThreadId,
  runId: RunId,
): Promise<TurnItem[]> {
  const run = await readRawFrames(store, rawLog, { threadId, runId });
  expect(run.logged).toBe(true);
  expect(run.frames.length).toBeGreaterThan(2);
  for (const frame of run.frames) {
    expect(Number.isNaN(Date.parse(frame.observedAt ?? ""))).toBe(false);
  }
  const bySequence = new Map<number, StoredEvent>(
    (await store.readAll(0)).map((e) => [e.sequence, e]),
  );
  const linked = run.frames.filter((f) => f.sequence !== null);
  expect(linked.length).toBeGreaterThan(0);
  for (const frame of linked) {
    expect(frame.sequence).toBe(frame.sequences[0]);
    for (const sequence of frame.sequences) {
      expect(bySequence.get(sequence)?.data).toMatchObject({ rawEventId: frame.rawEventId });
    }
  }
  const items = [...state.turnItems.values()]
    .map((e) => e.item)
    .filter((i) => i.runId === runId && i.type !== "user_message" && i.nodeId !== null);
  const fromProvider = items.filter((i) => i.rawFrames !== undefined);
  expect(fromProvider.map((i) => i.type)).toEqual(
    expect.arrayContaining(["assistant_message", "command_execution"]),
  );
  for (const item of fromProvider) {
    const range = item.rawFrames;
    if (!range || !item.nodeId) throw new Error("checked above");
    const view = await readRawFrames(store, rawLog, { threadId, runId, nodeId: item.nodeId });
    expect(view.frames[0]?.rawEventId).toBe(range.first);
    expect(view.frames.at(-1)?.rawEventId).toBe(range.last);
    const started = (view.frames[0]?.sequences ?? [])
      .flatMap((s) => bySequence.get(s) ?? [])
      .filter((e) => e.type === "ItemStarted" || e.type === "RuntimeRequestOpened");
    const startedNodes = started.map((e) => (e.data as { node?: { id: string } }).node?.id);
    expect(startedNodes).toContain(item.nodeId);
    if (item.type === "command_execution" && item.nativeItemRef) {
      // The starting frame is the provider's own word about this call.
      expect(JSON.stringify(view.frames[0]?.payload)).toContain(item.nativeItemRef);
    }
  }
  return fromProvider;
}

/**
 * B8: a run's frames open with its turn's start frame and close with its end frame, which led to
 * the turn's end (ProviderTurnCompleted).
 */
export async function expectRunFramesSpanTheTurn(
  store: EventStore,
  rawLog: RawLogReader,
  threadId: ThreadId,
  runId: RunId,
  ends: { start: string | RegExp; end: string | RegExp },
): Promise<void> {
  const { frames } = await readRawFrames(store, rawLog, { threadId, runId });
  expect(frames[0]?.method).toMatch(ends.start);
  const last = frames.at(-1);
  expect(last?.method).toMatch(ends.end);
  const led = (await store.readAll(0)).filter((e) => last?.sequences.includes(e.sequence));
  expect(led.map((e) => e.type)).toContain("ProviderTurnCompleted");
}
