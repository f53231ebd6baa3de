import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGeminiAdapter } from "@skein/adapters-acp";
import { createClaudeAdapter } from "@skein/adapters-claude";
import { createCodexAdapter } from "@skein/adapters-codex";
import { openSqliteEventStore, type SqliteEventStore } from "@skein/db";
import type { ProjectId, ProviderKind, ThreadId } from "@skein/domain";
import {
  anthropicTextReply,
  anthropicUserTexts,
  type CodexTestHome,
  createCodexTestHome,
  createGeminiTestHome,
  type FakeGeminiServer,
  type FakeMessagesServer,
  type FakeResponsesServer,
  type GeminiTestHome,
  geminiLatestUserText,
  geminiRequestText,
  geminiTextReply,
  messageTexts,
  responsesTextReply,
  startFakeGeminiServer,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";

// Three real runtimes, each on its own fake model: Codex app-server, Claude Code, Gemini CLI (ACP).
let store: SqliteEventStore;
let orchestrator: Orchestrator;
let openai: FakeResponsesServer;
let anthropic: FakeMessagesServer;
let gemini: FakeGeminiServer;
let codexHome: CodexTestHome;
let geminiHome: GeminiTestHome;
let projectId: ProjectId;
const dirs = {
  data: mkdtempSync(join(tmpdir(), "skein-x3-data-")),
  work: mkdtempSync(join(tmpdir(), "skein-x3-work-")),
  claude: mkdtempSync(join(tmpdir(), "skein-x3-claude-")),
};

beforeAll(async () => {
  openai = await startFakeResponsesServer();
  anthropic = await startFakeMessagesServer();
  gemini = await startFakeGeminiServer();
  codexHome = await createCodexTestHome({ baseUrl: openai.url, model: "gpt-5.5" });
  geminiHome = await createGeminiTestHome({ baseUrl: gemini.url });
  store = openSqliteEventStore({ dataDir: dirs.data });
  orchestrator = await createOrchestrator({
    store,
    adapters: {
      codex: createCodexAdapter({ codexHome: codexHome.dir, env: { RUST_LOG: "error" } }),
      claude: createClaudeAdapter({ configDir: dirs.claude, baseUrl: anthropic.url, apiKey: "t" }),
      gemini: createGeminiAdapter({ env: geminiHome.env }),
    },
    dataDir: dirs.data,
    sessionIdleMs: 0,
  });
  ({ projectId } = await orchestrator.createProject({ name: "x3", workspaceRoot: dirs.work }));
}, 60_000);

afterAll(async () => {
  await orchestrator?.shutdown();
  await store?.close();
  await Promise.all([openai?.close(), anthropic?.close(), gemini?.close()]);
  await codexHome?.remove();
  await geminiHome?.remove();
  for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
});

async function send(threadId: ThreadId, text: string, provider: ProviderKind) {
  const { runId } = await orchestrator.sendMessage({ threadId, text, provider });
  await orchestrator.waitForRun(runId);
  const state = await orchestrator.repository.thread(threadId);
  const run = state.runs.get(runId)!;
  expect(run.status).toBe("completed");
  const handoff = run.contextHandoffId ? state.handoffs.get(run.contextHandoffId) : undefined;
  return { state, run, handoff };
}

describe("Codex → Gemini → Claude → Codex on one thread (issue 28 item 5), real runtimes", () => {
  it("T6/T7/E14: Gemini gets a portable handoff of Codex's run, Claude one of runs 1–2, Codex back a delta of runs 2–3 only", async () => {
    openai.enqueue(responsesTextReply("codex answer one"), responsesTextReply("codex answer four"));
    gemini.enqueue(geminiTextReply("gemini answer two"));
    anthropic.enqueue(anthropicTextReply("claude answer three"));
    const { threadId } = await orchestrator.createThread({
      projectId,
      title: "x3",
      provider: "codex",
    });

    const one = await send(threadId, "message one", "codex");
    expect(one.handoff).toBeUndefined();

    // Run 2 on Gemini: a new Gemini session, told runs 1 in a portable handoff ahead of the message.
    const two = await send(threadId, "message two", "gemini");
    expect(two.run.provider).toBe("gemini");
    expect(two.handoff).toMatchObject({
      strategy: "full_thread_summary",
      coveredRunOrdinals: { from: 1, to: 1 },
    });
    const geminiAsked = gemini.conversationRequests().at(-1)!;
    const toGemini = geminiRequestText(geminiAsked);
    expect(toGemini).toContain(two.handoff!.summaryText);
    for (const part of ["message one", "codex answer one"]) expect(toGemini).toContain(part);
    expect(geminiLatestUserText(geminiAsked)).toContain("message two");

    // Run 3 on Claude: runs 1–2, Gemini's answer among them.
    const three = await send(threadId, "message three", "claude");
    expect(three.handoff).toMatchObject({
      strategy: "full_thread_summary",
      coveredRunOrdinals: { from: 1, to: 2 },
    });
    const claudeAsked = anthropic
      .conversationRequests()
      .filter((r) => r.agent === "main")
      .at(-1)!;
    const [sentHandoff, sentMessage] = anthropicUserTexts(claudeAsked);
    expect(sentHandoff).toBe(three.handoff!.summaryText);
    for (const part of ["message one", "codex answer one", "message two", "gemini answer two"]) {
      expect(sentHandoff).toContain(part);
    }
    expect(sentMessage).toBe("message three");

    // Run 4 back on Codex: its own thread again, with a delta of what it has not seen (runs 2–3).
    const codexThread = [...three.state.providerThreads.values()].find(
      (p) => p.provider === "codex",
    )!;
    const four = await send(threadId, "message four", "codex");
    expect(four.run.providerThreadId).toBe(codexThread.id);
    expect(four.handoff).toMatchObject({
      strategy: "delta_since_target_last_seen",
      coveredRunOrdinals: { from: 2, to: 3 },
    });
    const userTexts = messageTexts(openai.requests.at(-1)!, "user");
    const delta = userTexts.find((t) => t === four.handoff!.summaryText);
    expect(delta).toBeDefined();
    for (const part of [
      "message two",
      "gemini answer two",
      "message three",
      "claude answer three",
    ]) {
      expect(delta).toContain(part);
    }
    expect(delta).not.toContain("codex answer one");
    expect(userTexts.at(-1)).toBe("message four");
  }, 300_000);

  it("T1/T6: a fork of a Gemini thread at run 1 continues on Gemini from a portable handoff of run 1 only; a fork of the latest goes to Codex with runs 1–2", async () => {
    gemini.enqueue(
      geminiTextReply("gemini fork answer one"),
      geminiTextReply("gemini fork answer two"),
      geminiTextReply("gemini answer on the fork"),
    );
    openai.enqueue(responsesTextReply("codex answer on the fork"));
    const { threadId } = await orchestrator.createThread({
      projectId,
      title: "gemini source",
      provider: "gemini",
    });
    const first = await send(threadId, "fork message one", "gemini");
    await send(threadId, "fork message two", "gemini");

    // Gemini declares no session/fork: the fork is rebuilt portably, up to its point and no further.
    const atOne = await orchestrator.forkThread({
      threadId,
      sourcePoint: { type: "run", runId: first.run.id },
    });
    const onGemini = await send(atOne.threadId, "fork message three", "gemini");
    expect(onGemini.run.provider).toBe("gemini");
    expect(onGemini.handoff).toMatchObject({ coveredRunOrdinals: { from: 1, to: 1 } });
    const geminiAsked = geminiRequestText(gemini.conversationRequests().at(-1)!);
    expect(geminiAsked).toContain("fork message one");
    expect(geminiAsked).toContain("gemini fork answer one");
    expect(geminiAsked).not.toContain("fork message two");
    expect(geminiAsked).not.toContain("gemini fork answer two");

    // A fork of the latest point, on Codex: everything Gemini said, handed over.
    const latest = await orchestrator.forkThread({ threadId });
    const onCodex = await send(latest.threadId, "fork message four", "codex");
    expect(onCodex.run.provider).toBe("codex");
    expect(onCodex.handoff).toMatchObject({ coveredRunOrdinals: { from: 1, to: 2 } });
    const codexTexts = messageTexts(openai.requests.at(-1)!, "user").join("\n");
    for (const part of ["gemini fork answer one", "fork message two", "gemini fork answer two"]) {
      expect(codexTexts).toContain(part);
    }
    expect(messageTexts(openai.requests.at(-1)!, "user").at(-1)).toBe("fork message four");
  }, 300_000);
});
