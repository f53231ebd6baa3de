import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGeminiAdapter } from "@skein/adapters-acp";
import { createCodexAdapter } from "@skein/adapters-codex";
import { openSqliteEventStore, type SqliteEventStore } from "@skein/db";
import type { ProviderKind, ThreadId } from "@skein/domain";
import {
  type CodexTestHome,
  createCodexTestHome,
  createGeminiTestHome,
  execCommandReply,
  type FakeGeminiServer,
  type FakeResponsesServer,
  type GeminiTestHome,
  geminiFunctionResponses,
  geminiLatestUserText,
  geminiRequestText,
  geminiTextReply,
  geminiWriteFileReply,
  messageTexts,
  responsesTextReply,
  startFakeGeminiServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";
import { createGitWorkspace, git } from "./support/git-workspace.ts";

// Issue 28 item 5, bring-back: real Codex app-server and real Gemini CLI (ACP), each on its fake
// model server; the person's thread in a git folder, forks in their own worktrees.
let store: SqliteEventStore;
let orchestrator: Orchestrator;
let openai: FakeResponsesServer;
let gemini: FakeGeminiServer;
let codexHome: CodexTestHome;
let geminiHome: GeminiTestHome;
const dataDir = mkdtempSync(join(tmpdir(), "skein-gbb-data-"));
const workspaces: string[] = [];

beforeAll(async () => {
  openai = await startFakeResponsesServer();
  gemini = await startFakeGeminiServer();
  codexHome = await createCodexTestHome({ baseUrl: openai.url, model: "gpt-5.5" });
  geminiHome = await createGeminiTestHome({ baseUrl: gemini.url });
  store = openSqliteEventStore({ dataDir });
  orchestrator = await createOrchestrator({
    store,
    adapters: {
      codex: createCodexAdapter({ codexHome: codexHome.dir, env: { RUST_LOG: "error" } }),
      gemini: createGeminiAdapter({ env: geminiHome.env }),
    },
    dataDir,
  });
}, 60_000);

afterAll(async () => {
  await orchestrator?.shutdown();
  await store?.close();
  await Promise.all([openai?.close(), gemini?.close()]);
  await codexHome?.remove();
  await geminiHome?.remove();
  for (const dir of [dataDir, ...workspaces]) {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The person's thread in their own git folder (bring-back lands there), on `provider`. */
async function personThread(provider: ProviderKind) {
  const ws = createGitWorkspace({ "notes.txt": "base\n" });
  workspaces.push(ws);
  const { projectId } = await orchestrator.createProject({ name: provider, workspaceRoot: ws });
  const { threadId } = await orchestrator.createThread({
    projectId,
    provider,
    runtimeMode: "full-access",
    workspace: "local",
  });
  return { ws, threadId };
}

async function send(threadId: ThreadId, text: string, provider: ProviderKind) {
  const { runId } = await orchestrator.sendMessage({ threadId, text, provider });
  return finished(threadId, runId);
}

async function finished(threadId: ThreadId, runId: string) {
  await orchestrator.waitForRun(runId as never);
  const state = await orchestrator.repository.thread(threadId);
  const run = state.runs.get(runId as never)!;
  expect(run.status).toBe("completed");
  const handoff = run.contextHandoffId ? state.handoffs.get(run.contextHandoffId) : undefined;
  return { state, run, handoff };
}

describe("bring-back between Codex and Gemini (issue 28 item 5), real runtimes and real git", () => {
  it("T8/B9: a Codex thread brings back its Gemini fork: the fork's file lands by squash and Codex's next request carries a bring-back delta of what Gemini did, not the source's own run", async () => {
    const { ws, threadId } = await personThread("codex");
    openai.enqueue(responsesTextReply("codex source answer one"));
    await send(threadId, "source message one", "codex");

    const fork = await orchestrator.forkThread({ threadId, isolatedWorkspace: true });
    gemini.enqueue(
      geminiWriteFileReply("gemini.txt", "written by gemini\n"),
      geminiTextReply("gemini fork wrote gemini.txt"),
    );
    const onGemini = await send(fork.threadId, "fork message: write gemini.txt", "gemini");
    expect(onGemini.run.provider).toBe("gemini");
    // Gemini's write_file made a new file (it checks for the file first; a missing one must read
    // as "no such file"), and the edit is an item on the fork.
    const [wrote] = geminiFunctionResponses(gemini.conversationRequests().at(-1)!);
    expect(wrote).toMatchObject({ name: "write_file" });
    expect(wrote!.text).toContain("Successfully created and wrote to new file");
    const edits = [...onGemini.state.turnItems.values()].filter(
      (e) => e.item.type === "file_change",
    );
    expect(edits.map((e) => e.item.status)).toEqual(["completed"]);

    openai.enqueue(responsesTextReply("codex took it back"));
    const back = await orchestrator.sendMessage({
      threadId,
      text: "bring the gemini fork back",
      bringBackFrom: fork.threadId,
      code: "squash",
    });
    expect(back.code?.mode).toBe("squash");
    expect(back.code?.files.map((f) => `${f.status} ${f.path}`)).toEqual(["added gemini.txt"]);
    expect(readFileSync(join(ws, "gemini.txt"), "utf8")).toBe("written by gemini\n");
    // Squash: uncommitted changes in the person's folder, nothing committed for them.
    expect(git(ws, "log", "--oneline").trim().split("\n")).toHaveLength(1);

    const { run, state, handoff } = await finished(threadId, back.runId);
    expect(run.provider).toBe("codex");
    expect(state.transfers.get(handoff!.transferId)).toMatchObject({
      type: "merge_back",
      sourceThreadId: fork.threadId,
      sourceProvider: "gemini",
      targetProvider: "codex",
      status: "consumed",
    });
    const userTexts = messageTexts(openai.requests.at(-1)!, "user");
    const delta = userTexts.find((t) => t === handoff!.summaryText);
    expect(delta).toBeDefined();
    for (const part of ["fork message: write gemini.txt", "gemini fork wrote gemini.txt"]) {
      expect(delta).toContain(part);
    }
    // The file Gemini wrote is named among the code the fork changed.
    expect(delta).toMatch(/## State of the code[^#]*gemini\.txt/);
    expect(delta).not.toContain("codex source answer one");
    expect(userTexts.at(-1)).toBe("bring the gemini fork back");
  }, 300_000);

  it("T8/B9: a Gemini thread brings back its Codex fork: the fork's file lands by squash and Gemini's next prompt carries the bring-back delta of Codex's run", async () => {
    const { ws, threadId } = await personThread("gemini");
    gemini.enqueue(geminiTextReply("gemini source answer one"));
    const first = await send(threadId, "gemini source message one", "gemini");

    const fork = await orchestrator.forkThread({ threadId, isolatedWorkspace: true });
    openai.enqueue(
      // No login shell (a slow profile on a busy machine); Codex waits for the command to end.
      execCommandReply("printf 'written by codex\\n' > codex.txt", {
        extra: { login: false, yield_time_ms: 60_000 },
      }),
      responsesTextReply("codex fork wrote codex.txt"),
    );
    const onCodex = await send(fork.threadId, "fork message: write codex.txt", "codex");
    expect(onCodex.run.provider).toBe("codex");

    gemini.enqueue(geminiTextReply("gemini took it back"));
    const back = await orchestrator.sendMessage({
      threadId,
      text: "bring the codex fork back",
      bringBackFrom: fork.threadId,
      code: "squash",
    });
    expect(back.code?.files.map((f) => `${f.status} ${f.path}`)).toEqual(["added codex.txt"]);
    expect(readFileSync(join(ws, "codex.txt"), "utf8")).toBe("written by codex\n");

    const { run, state, handoff } = await finished(threadId, back.runId);
    expect(run.provider).toBe("gemini");
    expect(state.transfers.get(handoff!.transferId)).toMatchObject({
      type: "merge_back",
      sourceThreadId: fork.threadId,
      sourceProvider: "codex",
      targetProvider: "gemini",
      status: "consumed",
    });
    for (const part of ["fork message: write codex.txt", "codex fork wrote codex.txt"]) {
      expect(handoff!.summaryText).toContain(part);
    }
    // Codex's command that wrote the file is part of what the fork did.
    expect(handoff!.summaryText).toContain("> codex.txt");
    expect(handoff!.summaryText).not.toContain("gemini source answer one");
    // Gemini's own session goes on: the delta rides ahead of the message in the same prompt.
    expect(run.providerThreadId).toBe(first.run.providerThreadId);
    const asked = gemini.conversationRequests().at(-1)!;
    const latest = geminiLatestUserText(asked);
    expect(latest).toContain(handoff!.summaryText);
    expect(latest).toContain("bring the codex fork back");
    expect(geminiRequestText(asked)).toContain("gemini source answer one");
  }, 300_000);
});
