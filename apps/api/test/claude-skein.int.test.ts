import { existsSync } from "node:fs";
import { join } from "node:path";
import { type ThreadId, type ThreadState, threadStreamId } from "@skein/domain";
import {
  anthropicAssistantTexts,
  anthropicBashReply,
  anthropicErrorReply,
  anthropicSlowTextReply,
  anthropicTextReply,
  anthropicToolResults,
  anthropicToolUseReply,
  anthropicUserTexts,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import {
  type ClaudeSkeinHarness,
  useClaudeSkeinHarness,
  eventually,
} from "./support/claude-skein-harness.ts";

const harness = useClaudeSkeinHarness();

const items = (state: ThreadState) =>
  [...state.turnItems.values()].sort((a, b) => a.sortKey - b.sortKey).map((e) => e.item);

const assistantTexts = (state: ThreadState) =>
  items(state).flatMap((i) => (i.type === "assistant_message" ? [i.text] : []));

/** Sends a message and waits until Claude is streaming its answer into Skein. */
async function sendAndAwaitStreaming(h: ClaudeSkeinHarness, threadId: ThreadId, text: string) {
  const after = await h.store.headSequence();
  const { runId } = await h.orchestrator.sendMessage({ threadId, text });
  await eventually(async () => {
    const events = await h.store.readStream(threadStreamId(threadId), after);
    expect(events.some((e) => e.type === "ItemDeltaAppended")).toBe(true);
  });
  return runId;
}

describe("Claude through Skein: turns", () => {
  it("streams and completes a turn; the second message carries the first and reuses the one CLI process", async () => {
    const h = await harness();
    h.anthropic.enqueue(anthropicSlowTextReply("Hello from Claude", 5), anthropicTextReply("A2"));
    const threadId = await h.createThread();

    const first = await h.send(threadId, "first message");
    expect(first.state.runs.get(first.runId)?.status).toBe("completed");
    expect(assistantTexts(first.state)).toEqual(["Hello from Claude"]);
    const events = await h.store.readStream(threadStreamId(threadId));
    expect(events.filter((e) => e.type === "ItemDeltaAppended").length).toBeGreaterThan(0);
    const turn = [...first.state.providerTurns.values()][0];
    expect(turn?.nativeTurnRef).toMatch(/^[0-9a-f-]{36}$/);

    const second = await h.send(threadId, "second message");
    expect(second.state.runs.get(second.runId)?.status).toBe("completed");
    const request = h.claudeRequests()[1]!;
    expect(anthropicUserTexts(request)).toEqual(["first message", "second message"]);
    expect(anthropicAssistantTexts(request)).toEqual(["Hello from Claude"]);
    expect(h.claudeSpawns()).toBe(1);
  });

  it("T3/T4: native fork at run 1 of 2: the fork's request holds turn 1 only, the source is untouched, the transfer goes resolved_native → consumed", async () => {
    const h = await harness();
    h.anthropic.enqueue(
      anthropicTextReply("A1"),
      anthropicTextReply("A2"),
      anthropicTextReply("F1"),
      anthropicTextReply("A3"),
    );
    const source = await h.createThread();
    const { runId: run1 } = await h.send(source, "one");
    await h.send(source, "two");

    const fork = await h.orchestrator.forkThread({
      threadId: source,
      sourcePoint: { type: "run", runId: run1 },
    });
    const { runId, state } = await h.send(fork.threadId, "on the fork", { provider: "claude" });
    expect(state.runs.get(runId)?.status).toBe("completed");
    const forkRequest = h.claudeRequests()[2]!;
    expect(anthropicUserTexts(forkRequest)).toEqual(["one", "on the fork"]);
    expect(anthropicAssistantTexts(forkRequest)).toEqual(["A1"]);

    const transfer = state.transfers.get(fork.transferId)!;
    expect(transfer).toMatchObject({ status: "consumed", resolution: { strategy: "native_fork" } });
    expect(state.handoffs.size).toBe(0);
    const transferEvents = (await h.store.readStream(threadStreamId(fork.threadId)))
      .map((e) => e.type)
      .filter((t) => t.startsWith("ContextTransfer"));
    expect(transferEvents).toEqual([
      "ContextTransferCreated",
      "ContextTransferResolved",
      "ContextTransferConsumed",
    ]);
    const [forked] = [...state.providerThreads.values()];
    const sourceThread = [...(await h.thread(source)).providerThreads.values()][0]!;
    expect(forked?.nativeThreadRef).not.toBe(sourceThread.nativeThreadRef);

    // The source session still holds both turns: its next request carries them.
    await h.send(source, "three");
    const sourceRequest = h.claudeRequests()[3]!;
    expect(anthropicUserTexts(sourceRequest)).toEqual(["one", "two", "three"]);
    expect(anthropicAssistantTexts(sourceRequest)).toEqual(["A1", "A2"]);
  });

  it("approval-required: allowing Bash runs it and its output lands in turnItems; denying does not run it; both turns complete", async () => {
    const h = await harness();
    const made = join(h.workspaceRoot, "made.txt");
    const refused = join(h.workspaceRoot, "refused.txt");
    h.anthropic.enqueue(
      anthropicBashReply(`touch ${made} && echo made-it`),
      anthropicTextReply("ran it"),
      anthropicBashReply(`touch ${refused}`),
      anthropicTextReply("did not run it"),
    );
    const threadId = await h.createThread({ runtimeMode: "approval-required" });

    const answer = async (text: string, decision: "accept" | "decline") => {
      const { runId } = await h.orchestrator.sendMessage({ threadId, text });
      const request = await eventually(async () => {
        const pending = [...(await h.thread(threadId)).requests.values()].find(
          (r) => r.status === "pending",
        );
        expect(pending).toBeDefined();
        return pending!;
      });
      expect(request.kind).toBe("command");
      await h.orchestrator.respondToRequest({ requestId: request.id, decision });
      await h.orchestrator.waitForRun(runId);
      return { runId, state: await h.thread(threadId) };
    };

    const allowed = await answer("make the file", "accept");
    expect(allowed.state.runs.get(allowed.runId)?.status).toBe("completed");
    expect(existsSync(made)).toBe(true);
    const command = items(allowed.state).find((i) => i.type === "command_execution");
    expect(command).toMatchObject({
      input: `touch ${made} && echo made-it`,
      output: "made-it",
      status: "completed",
    });

    const denied = await answer("make the other file", "decline");
    expect(denied.state.runs.get(denied.runId)?.status).toBe("completed");
    expect(existsSync(refused)).toBe(false);
    const declined = items(denied.state).filter(
      (i) => i.type === "command_execution" && i.runId === denied.runId,
    );
    expect(declined.map((i) => i.status)).toEqual(["declined"]);
    expect(assistantTexts(denied.state)).toContain("did not run it");
  });

  it("interrupt mid-stream ends the run interrupted long before the reply would have ended", async () => {
    const h = await harness();
    h.anthropic.enqueue(anthropicSlowTextReply("z".repeat(600), 20));
    const threadId = await h.createThread();
    const runId = await sendAndAwaitStreaming(h, threadId, "talk slowly");

    await h.orchestrator.interrupt({ threadId });
    await eventually(async () => {
      expect((await h.thread(threadId)).runs.get(runId)?.status).toBe("interrupted");
    });
    // Bound by events, not the clock: the run ended before the model's 600-delta reply did.
    const state = await h.thread(threadId);
    const reply = [...state.turnItems.values()]
      .map((e) => e.item)
      .find((i) => i.type === "assistant_message" && i.runId === runId);
    expect(reply?.type === "assistant_message" ? reply.text.length : 0).toBeLessThan(600);
    await h.orchestrator.waitForRun(runId);
  });

  it("a model HTTP 500 with new attempts off fails the run with the API's message; the next message works", async () => {
    const h = await harness({ attempts: { maxRetries: 0 } });
    h.anthropic.enqueue(
      anthropicErrorReply(500, "model on fire", { shouldRetry: false }),
      anthropicTextReply("fine again"),
    );
    const threadId = await h.createThread();
    const failed = await h.send(threadId, "first");
    const run = failed.state.runs.get(failed.runId)!;
    expect(run.status).toBe("failed");
    expect(run.error).toContain("model on fire");

    const next = await h.send(threadId, "second");
    expect(next.state.runs.get(next.runId)?.status).toBe("completed");
    expect(assistantTexts(next.state)).toContain("fine again");
  });

  it("R2: with new attempts off, killing the claude process mid-turn ends the run; the next message resumes the session with its history", async () => {
    const h = await harness({ attempts: { maxRetries: 0 } });
    h.anthropic.enqueue(
      anthropicTextReply("A1"),
      anthropicSlowTextReply("y".repeat(600), 20),
      anthropicTextReply("back again"),
    );
    const threadId = await h.createThread();
    await h.send(threadId, "first");
    const runId = await sendAndAwaitStreaming(h, threadId, "to be killed");
    const providerThread = [...(await h.thread(threadId)).providerThreads.values()][0]!;
    const process = h.claudeSessions[0]?.liveProcess(providerThread.nativeThreadRef ?? "");
    expect(process?.kill("SIGKILL")).toBe(true);
    await h.orchestrator.waitForRun(runId);
    expect(["failed", "interrupted"]).toContain((await h.thread(threadId)).runs.get(runId)?.status);

    const next = await h.send(threadId, "after the crash");
    expect(next.state.runs.get(next.runId)?.status).toBe("completed");
    const request = h.claudeRequests().at(-1)!;
    const users = anthropicUserTexts(request).map((t) => t.trim());
    expect(users[0]).toBe("first");
    expect(users.at(-1)).toBe("after the crash");
    expect(anthropicAssistantTexts(request)[0]).toBe("A1");
    expect(h.claudeSpawns()).toBe(2);
  });
});

describe("Claude through Skein: subagents", () => {
  it("T9 app-owned: Claude calls skein_delegate over MCP, a child thread runs, and Claude's next request carries its answer", async () => {
    const h = await harness({ codex: "scripted" });
    h.scriptedCodex!.enqueue([{ type: "text", text: "child says 42" }]);
    h.anthropic.enqueue(
      anthropicToolUseReply(
        "mcp__skein__skein_delegate",
        { provider: "codex", prompt: "compute the answer" },
        { id: "toolu_delegate_1" },
      ),
      anthropicTextReply("parent done"),
    );
    const threadId = await h.createThread();
    const { runId, state } = await h.send(threadId, "delegate please");
    expect(state.runs.get(runId)?.status).toBe("completed");

    const tool = items(state).find((i) => i.type === "dynamic_tool");
    expect(tool).toMatchObject({ toolName: "skein_delegate", output: "child says 42" });
    const [, afterTool] = h.claudeRequests();
    expect(anthropicToolResults(afterTool!)).toEqual([
      { toolUseId: "toolu_delegate_1", text: "child says 42", isError: false },
    ]);

    const result = [...state.transfers.values()].find((t) => t.type === "subagent_result");
    expect(result).toMatchObject({ status: "consumed" });
    const child = await h.thread(result!.sourceThreadId as ThreadId);
    expect(child.thread?.lineage).toMatchObject({
      parentThreadId: threadId,
      relationshipToParent: "subagent",
    });
    expect(assistantTexts(child)).toEqual(["child says 42"]);
    expect(assistantTexts(state)).toEqual(["parent done"]);
  });
});
