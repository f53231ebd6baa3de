import type { ThreadId, ThreadState, TurnItem } from "@skein/domain";
import {
  anthropicRequestText,
  anthropicTextReply,
  conversationText,
  execCommandReply,
  responsesTextReply,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { type ClaudeSkeinHarness, useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";

// Real binaries on a loaded 2-core machine.
const SLOW = 120_000;

const harness = useClaudeSkeinHarness();

function itemsOf(state: ThreadState): TurnItem[] {
  return [...state.turnItems.values()].sort((a, b) => a.sortKey - b.sortKey).map((e) => e.item);
}

async function transferOf(x: ClaudeSkeinHarness, threadId: ThreadId, transferId: string) {
  return (await x.thread(threadId)).transfers.get(transferId as never);
}

describe("E12: forks from a turn item, a node and an idle provider thread (real runtimes, fake models)", () => {
  it(
    "E12 T3 E13: Codex, forked at a command inside a run: the first fork run resolves portably and its request carries the run up to the command, not the reply after it",
    async () => {
      const h = await harness({ codex: "real" });
      const openai = h.openai!;
      openai.enqueue(execCommandReply("echo CUT-HERE"), responsesTextReply("AFTER-CUT-REPLY"));
      const source = await h.createThread({ provider: "codex", runtimeMode: "full-access" });
      const one = await h.send(source, "MSG-ONE", { provider: "codex" });
      expect(one.state.runs.get(one.runId)?.status).toBe("completed");
      const command = itemsOf(one.state).find((i) => i.type === "command_execution");
      expect(command).toBeDefined();

      const fork = await h.orchestrator.forkThread({
        threadId: source,
        sourcePoint: { type: "turn_item", turnItemId: command!.id },
      });
      const pending = await transferOf(h, fork.threadId, fork.transferId);
      expect(pending?.sourcePoint).toMatchObject({
        turnItemId: command!.id,
        providerTurnRef: null,
      });

      openai.enqueue(responsesTextReply("FORK-ANSWER"));
      const before = openai.requests.length;
      const onFork = await h.send(fork.threadId, "FORK-MSG", { provider: "codex" });
      expect(onFork.state.runs.get(onFork.runId)?.status).toBe("completed");
      const transfer = onFork.state.transfers.get(fork.transferId);
      expect(transfer?.status).toBe("consumed");
      expect(transfer?.resolution?.strategy).toBe("portable_context");
      const text = conversationText(openai.requests[before]!);
      for (const part of ["MSG-ONE", "CUT-HERE", "FORK-MSG"]) expect(text).toContain(part);
      expect(text).not.toContain("AFTER-CUT-REPLY");
    },
    SLOW,
  );

  it(
    "E12 E9 C1 E13: the idle Codex provider thread of a thread that moved to Claude forks natively at its last turn: Codex sees its runs and not Claude's",
    async () => {
      const h = await harness({ codex: "real" });
      const openai = h.openai!;
      openai.enqueue(responsesTextReply("CODEX-ANSWER-ONE"));
      h.anthropic.enqueue(anthropicTextReply("CLAUDE-ANSWER-TWO"));
      const source = await h.createThread({ provider: "codex" });
      await h.send(source, "CODEX-ONE", { provider: "codex" });
      const two = await h.send(source, "CLAUDE-TWO", { provider: "claude" });
      expect(two.state.runs.get(two.runId)?.status).toBe("completed");
      const codexThread = [...two.state.providerThreads.values()].find(
        (p) => p.provider === "codex",
      )!;
      expect(codexThread.status).toBe("idle");

      const fork = await h.orchestrator.forkThread({
        threadId: source,
        sourcePoint: { type: "provider_thread", providerThreadId: codexThread.id },
      });
      openai.enqueue(responsesTextReply("FORK-ANSWER"));
      const before = openai.requests.length;
      const onFork = await h.send(fork.threadId, "FORK-MSG", { provider: "codex" });
      expect(onFork.state.runs.get(onFork.runId)?.status).toBe("completed");
      const transfer = onFork.state.transfers.get(fork.transferId);
      expect(transfer?.status).toBe("consumed");
      expect(transfer?.resolution?.strategy).toBe("native_fork");
      const text = conversationText(openai.requests[before]!);
      for (const part of ["CODEX-ONE", "CODEX-ANSWER-ONE", "FORK-MSG"]) {
        expect(text).toContain(part);
      }
      expect(text).not.toContain("CLAUDE-TWO");
      expect(text).not.toContain("CLAUDE-ANSWER-TWO");
    },
    SLOW,
  );

  it(
    "E12 T3 E13: Claude, forked at the reply node of run 1 of 2 (a turn's end) forks natively; forked at run 1's user message it resolves portably; neither carries run 2",
    async () => {
      const h = await harness({ codex: "none" });
      h.anthropic.enqueue(anthropicTextReply("CLAUDE-ONE"), anthropicTextReply("CLAUDE-TWO"));
      const source = await h.createThread({ provider: "claude" });
      const one = await h.send(source, "ASK-ONE", { provider: "claude" });
      await h.send(source, "ASK-TWO", { provider: "claude" });
      const state = await h.thread(source);
      const runOneItems = itemsOf(state).filter((i) => i.runId === one.runId);
      const reply = runOneItems.find((i) => i.type === "assistant_message")!;
      const question = runOneItems.find((i) => i.type === "user_message")!;
      expect(reply.nodeId).not.toBeNull();

      const atNode = await h.orchestrator.forkThread({
        threadId: source,
        sourcePoint: { type: "node", nodeId: reply.nodeId! },
      });
      h.anthropic.enqueue(anthropicTextReply("NODE-FORK-ANSWER"));
      const nodeRun = await h.send(atNode.threadId, "NODE-FORK-MSG", { provider: "claude" });
      expect(nodeRun.state.runs.get(nodeRun.runId)?.status).toBe("completed");
      expect(nodeRun.state.transfers.get(atNode.transferId)?.resolution?.strategy).toBe(
        "native_fork",
      );
      const nodeText = anthropicRequestText(h.claudeRequests().at(-1)!);
      for (const part of ["ASK-ONE", "CLAUDE-ONE", "NODE-FORK-MSG"]) {
        expect(nodeText).toContain(part);
      }
      expect(nodeText).not.toContain("ASK-TWO");

      const atQuestion = await h.orchestrator.forkThread({
        threadId: source,
        sourcePoint: { type: "turn_item", turnItemId: question.id },
      });
      h.anthropic.enqueue(anthropicTextReply("ITEM-FORK-ANSWER"));
      const itemRun = await h.send(atQuestion.threadId, "ITEM-FORK-MSG", { provider: "claude" });
      expect(itemRun.state.runs.get(itemRun.runId)?.status).toBe("completed");
      expect(itemRun.state.transfers.get(atQuestion.transferId)?.resolution?.strategy).toBe(
        "portable_context",
      );
      const itemText = anthropicRequestText(h.claudeRequests().at(-1)!);
      for (const part of ["ASK-ONE", "ITEM-FORK-MSG"]) expect(itemText).toContain(part);
      for (const absent of ["CLAUDE-ONE", "ASK-TWO", "CLAUDE-TWO"]) {
        expect(itemText).not.toContain(absent);
      }
    },
    SLOW,
  );
});
