import type { SqliteEventStore } from "@skein/db";
import { currentHandoffOf, type ProjectId, type ThreadId, type TurnItem } from "@skein/domain";
import {
  type FakeGeminiServer,
  geminiContents,
  geminiLatestUserText,
  geminiTextReply,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import type { Orchestrator } from "../src/orchestrator/index.ts";
import { createReadModels } from "../src/read-models/index.ts";
import { useGeminiOrchestrator } from "./support/gemini-orchestrator.ts";

// Real Gemini CLI (ACP) on the fake Gemini API. Gemini CLI cannot compact natively (no
// readHistory), so `thread.compact` has Skein write the compaction (issue 25 item 5).
let store: SqliteEventStore;
let orchestrator: Orchestrator;
let gemini: FakeGeminiServer;
let projectId: ProjectId;
useGeminiOrchestrator("gemini-compact", {}, (started) => {
  ({ store, orchestrator, gemini, projectId } = started);
});

async function send(threadId: ThreadId, text: string) {
  const { runId } = await orchestrator.sendMessage({ threadId, text });
  await orchestrator.waitForRun(runId);
  const state = await orchestrator.repository.thread(threadId);
  expect(state.runs.get(runId)?.status).toBe("completed");
  return state.runs.get(runId)!;
}

/** The lines under a `## Title` heading of a handoff text, up to the next heading. */
function section(text: string, title: string): string {
  const start = text.indexOf(`## ${title}`);
  if (start < 0) return "";
  const next = text.indexOf("\n## ", start + 3);
  return text.slice(start, next < 0 ? undefined : next);
}

const FACTS = [
  { text: "Our goal is to build the ZEBRA-PARSER for supplier invoices.", title: "Goal" },
  { text: "We decided to use ORCA-STORAGE for the parsed invoices.", title: "Decisions" },
  { text: "The parser must never call the PELICAN-API.", title: "Constraints" },
];

describe("thread.compact on Gemini CLI: Skein writes the compaction (issue 25 item 5)", () => {
  it("E3/E13/E14: the compaction run (no conversation number) holds Skein's structured summary; the next message starts a new Gemini session seeded with it, without the old session's turns", async () => {
    gemini.enqueue(
      geminiTextReply("ACK-ONE"),
      geminiTextReply("ACK-TWO"),
      geminiTextReply("ACK-THREE"),
      geminiTextReply("AFTER-COMPACTION"),
    );
    const { threadId: id } = await orchestrator.createThread({ projectId, provider: "gemini" });
    const threadId = id as ThreadId;
    const runs = [];
    for (const fact of FACTS) runs.push(await send(threadId, fact.text));
    // Before: one Gemini session whose third request carries the earlier turns as contents.
    const before = gemini.conversationRequests().at(-1)!;
    expect(geminiContents(before).filter((c) => c.role === "model").length).toBeGreaterThan(0);
    const oldProviderThread = runs[2]!.providerThreadId!;
    expect(runs.every((r) => r.providerThreadId === oldProviderThread)).toBe(true);
    const requestsBefore = gemini.requests.length;

    const { runId } = await orchestrator.compact({ threadId });
    await orchestrator.waitForRun(runId);

    // Skein wrote it: the fake model was asked nothing.
    expect(gemini.requests.length).toBe(requestsBefore);
    const state = await orchestrator.repository.thread(threadId);
    const detail = await createReadModels(store).detail(threadId);
    const run = detail.runs.find((r) => r.id === runId);
    expect(run).toMatchObject({ status: "completed", compact: true });
    // E3: the compaction takes no number in the conversation.
    expect(detail.thread.runCount).toBe(3);
    const items = detail.turnItems.filter(
      (i): i is Extract<TurnItem, { type: "compaction" }> =>
        i.type === "compaction" && i.runId === runId,
    );
    expect(items).toMatchObject([{ status: "completed", title: "Compacted context" }]);
    // The item names the provider handoff whose text (E13, written by Skein) the next run sends.
    const transfer = state.transfers.get(items[0]!.transferId!);
    expect(transfer).toMatchObject({
      type: "provider_handoff",
      status: "pending",
      sourceProvider: "gemini",
      targetProvider: "gemini",
    });
    const handoff = currentHandoffOf(state, transfer!.id)!;
    // E14: the portable handoff artifact over runs 1-3 and the compaction run, written by
    // Skein's builder (no authorship recorded means nobody else was asked).
    expect(handoff).toMatchObject({
      status: "ready",
      kind: "portable_context",
      strategy: "full_thread_summary",
      fromProviderThreadIds: [oldProviderThread],
      coveredRunOrdinals: { from: 1, to: 4 },
      createdByProvider: null,
    });
    expect(handoff.payload.authorship).toBeUndefined();
    expect(handoff.payload.brief).toBeDefined();
    for (const fact of FACTS) {
      expect(section(handoff.summaryText, fact.title)).toContain(fact.text.split(" ").at(-4));
    }
    expect(section(handoff.summaryText, "Last exchange")).toContain("ACK-THREE");
    // The provider thread that held the long context is retired.
    expect(state.providerThreads.get(oldProviderThread)?.status).toBe("closed");

    // Compacting again before a message would have nothing new to compact: refused, nothing queued.
    await expect(orchestrator.compact({ threadId })).rejects.toMatchObject({
      code: "precondition_failed",
    });
    expect((await orchestrator.repository.thread(threadId)).runOrder).toHaveLength(4);

    const next = await send(threadId, "What is next?");
    expect(next.providerThreadId).not.toBe(oldProviderThread);
    expect(next.contextHandoffId).toBe(handoff.id);
    // E13: the transfer resolved portable, with the compaction's handoff, consumed by this run.
    const resolved = (await orchestrator.repository.thread(threadId)).transfers.get(transfer!.id);
    expect(resolved).toMatchObject({
      status: "consumed",
      consumedByRunId: next.id,
      resolution: { strategy: "portable_context", contextHandoffId: handoff.id },
    });
    const asked = gemini.conversationRequests().at(-1)!;
    const contents = geminiContents(asked);
    // A new session: none of the old session's turns, the summary and the message instead.
    expect(contents.filter((c) => c.role === "model")).toEqual([]);
    const prompt = geminiLatestUserText(asked);
    expect(prompt).toContain(handoff.summaryText);
    for (const fact of FACTS) expect(prompt).toContain(fact.text);
    expect(prompt).toContain("What is next?");
  }, 240_000);
});
