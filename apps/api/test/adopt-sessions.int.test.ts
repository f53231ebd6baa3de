import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLAUDE_CAPABILITIES, createClaudeAdapter } from "@skein/adapters-claude";
import { claudeSessionOutsideSkein } from "@skein/adapters-claude/testing";
import { CODEX_CAPABILITIES, createCodexAdapter } from "@skein/adapters-codex";
import { codexThreadOutsideSkein } from "@skein/adapters-codex/testing";
import type { ClaudeConfig } from "@skein/adapters-claude";
import type { ProjectId, RunId, ThreadId } from "@skein/domain";
import {
  anthropicAssistantTexts,
  anthropicRequestText,
  anthropicTextReply,
  anthropicUserTexts,
  conversationText,
  createCodexTestHome,
  messageTexts,
  responsesTextReply,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { refusal } from "./support/errors.ts";
import { startTestServer } from "./support/test-server.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The API over both real runtimes, each pointed at its fake model server and at a home of the
 * person's own (a CODEX_HOME, a Claude config dir) where sessions are also made outside Skein.
 */
async function adoptionServer() {
  const openai = await startFakeResponsesServer();
  cleanups.push(() => openai.close());
  const anthropic = await startFakeMessagesServer();
  cleanups.push(() => anthropic.close());
  const home = await createCodexTestHome({ baseUrl: openai.url, model: "gpt-5.5" });
  cleanups.push(() => home.remove());
  const claudeDir = mkdtempSync(join(tmpdir(), "skein-adopt-claude-"));
  cleanups.push(() => rmSync(claudeDir, { recursive: true, force: true }));
  const claudeConfig: ClaudeConfig = {
    configDir: claudeDir,
    baseUrl: anthropic.url,
    apiKey: "test",
  };
  const adapters = {
    codex: createCodexAdapter({ codexHome: home.dir, env: { RUST_LOG: "error" } }),
    claude: createClaudeAdapter(claudeConfig),
  };
  const t = await startTestServer({
    orchestrator: (store, dataDir) =>
      createOrchestrator({ store, adapters, dataDir, sessionIdleMs: 0 }),
  });
  cleanups.push(() => t.close());
  const { projectId } = await t.client.project.create.mutate({
    name: "mine",
    workspaceRoot: t.workspaceDir,
  });
  const send = async (threadId: ThreadId, text: string, provider?: "codex" | "claude") => {
    const { runId } = await t.client.thread.sendMessage.mutate({
      threadId,
      text,
      ...(provider ? { provider } : {}),
    });
    await t.orchestrator.waitForRun(runId as RunId);
    return (await t.orchestrator.repository.thread(threadId)).runs.get(runId as RunId)!;
  };
  return { t, openai, anthropic, home, claudeConfig, projectId: projectId as ProjectId, send };
}

/** A Codex thread of the person's own, made straight on `codex app-server` in their CODEX_HOME. */
function codexThreadOutside(codexHome: string, cwd: string, prompts: string[]): Promise<string> {
  return codexThreadOutsideSkein({ codexHome, env: { RUST_LOG: "error" } }, cwd, prompts);
}

describe("adopting the person's own sessions (B6, E9)", () => {
  it("B6: a Codex thread made outside Skein is listed, adopted with its history as imported runs, resumed natively by the next message, forked natively at its imported turn, and switched to Claude", async () => {
    const s = await adoptionServer();
    s.openai.enqueue(responsesTextReply("the parser is in src/parse.ts"));
    const nativeId = await codexThreadOutside(s.home.dir, s.t.workspaceDir, [
      "where is the parser?",
    ]);
    // Another folder's thread is not listed for this one.
    const elsewhere = mkdtempSync(join(tmpdir(), "skein-adopt-elsewhere-"));
    cleanups.push(() => rmSync(elsewhere, { recursive: true, force: true }));
    await codexThreadOutside(s.home.dir, elsewhere, ["unrelated"]);

    const listed = await s.t.client.provider.sessions.query({
      provider: "codex",
      workspaceRoot: s.t.workspaceDir,
    });
    expect(listed.map((l) => l.nativeThreadRef)).toEqual([nativeId]);
    expect(listed[0]).toMatchObject({ title: "where is the parser?", threadId: null });

    const adopted = await s.t.client.thread.adopt.mutate({
      projectId: s.projectId,
      provider: "codex",
      providerThreadId: nativeId,
    });
    expect(adopted.importedRuns).toBe(1);
    const threadId = adopted.threadId as ThreadId;
    const state = await s.t.orchestrator.repository.thread(threadId);
    const [imported] = [...state.runs.values()];
    expect(imported).toMatchObject({ status: "completed", imported: true, provider: "codex" });
    expect(
      [...state.turnItems.values()].map((e) => [
        e.item.type,
        "text" in e.item ? e.item.text : null,
      ]),
    ).toEqual([
      ["user_message", "where is the parser?"],
      ["assistant_message", "the parser is in src/parse.ts"],
    ]);
    // Listed again, it names the app thread it now is.
    const again = await s.t.client.provider.sessions.query({
      provider: "codex",
      workspaceRoot: s.t.workspaceDir,
    });
    expect(again[0]?.threadId).toBe(threadId);

    const before = s.openai.requests.length;
    s.openai.enqueue(responsesTextReply("added a test"));
    const run = await s.send(threadId, "now add a test for it");
    expect(run.status).toBe("completed");
    expect(run.contextHandoffId).toBeNull();
    const pt = (await s.t.orchestrator.repository.thread(threadId)).providerThreads.get(
      run.providerThreadId!,
    );
    expect(pt?.nativeThreadRef).toBe(nativeId);
    // The model sees the adopted history as Codex's own resumed conversation, no handoff text.
    const request = s.openai.requests
      .slice(before)
      .find((r) => messageTexts(r, "user").includes("now add a test for it"))!;
    expect(messageTexts(request, "user").filter((t) => !t.startsWith("<"))).toEqual([
      "where is the parser?",
      "now add a test for it",
    ]);
    expect(messageTexts(request, "assistant")).toContain("the parser is in src/parse.ts");
    expect(conversationText(request)).not.toMatch(/handoff|earlier conversation/i);

    // A fork at the imported run works as on any thread: Codex forks its own thread natively
    // at the adopted turn, so the fork's model request has that turn and not the later one.
    const { threadId: forkId } = await s.t.client.thread.fork.mutate({
      threadId,
      sourcePoint: { type: "run", runId: imported!.id },
    });
    const forkedBefore = s.openai.requests.length;
    s.openai.enqueue(responsesTextReply("forked answer"));
    const forkRun = await s.send(forkId as ThreadId, "try another way");
    expect(forkRun.status).toBe("completed");
    expect(forkRun.contextHandoffId).toBeNull();
    const forkRequest = s.openai.requests
      .slice(forkedBefore)
      .find((r) => messageTexts(r, "user").includes("try another way"))!;
    expect(messageTexts(forkRequest, "user").filter((t) => !t.startsWith("<"))).toEqual([
      "where is the parser?",
      "try another way",
    ]);

    // A provider switch works as on any thread: Claude gets the adopted history as a handoff.
    const switched = await s.send(threadId, "review it", "claude");
    expect(switched.status).toBe("completed");
    expect(switched.contextHandoffId).not.toBeNull();
    const claudeRequest = s.anthropic.conversationRequests().at(-1)!;
    expect(anthropicRequestText(claudeRequest)).toContain("where is the parser?");
  }, 180_000);

  it("B6: a Claude session made outside Skein is listed, adopted, and resumed natively by the next message", async () => {
    const s = await adoptionServer();
    s.anthropic.enqueue(anthropicTextReply("the parser is in src/parse.ts"));
    const sessionId = await claudeSessionOutsideSkein(s.claudeConfig, s.t.workspaceDir, [
      "where is the parser?",
    ]);
    const listed = await s.t.client.provider.sessions.query({
      provider: "claude",
      workspaceRoot: s.t.workspaceDir,
    });
    expect(listed.map((l) => l.nativeThreadRef)).toEqual([sessionId]);
    expect(listed[0]).toMatchObject({ cwd: s.t.workspaceDir, threadId: null });

    const adopted = await s.t.client.thread.adopt.mutate({
      projectId: s.projectId,
      provider: "claude",
      providerThreadId: sessionId,
    });
    expect(adopted.importedRuns).toBe(1);
    const threadId = adopted.threadId as ThreadId;
    const state = await s.t.orchestrator.repository.thread(threadId);
    expect([...state.runs.values()].map((r) => [r.status, r.imported])).toEqual([
      ["completed", true],
    ]);
    expect([...state.turnItems.values()].map((e) => e.item.type)).toEqual([
      "user_message",
      "assistant_message",
    ]);

    const before = s.anthropic.conversationRequests().length;
    s.anthropic.enqueue(anthropicTextReply("added a test"));
    const run = await s.send(threadId, "now add a test for it");
    expect(run.status).toBe("completed");
    expect(run.contextHandoffId).toBeNull();
    const request = s.anthropic.conversationRequests().slice(before).at(-1)!;
    const users = anthropicUserTexts(request).filter((t) => !t.startsWith("<"));
    expect(users).toEqual(["where is the parser?", "now add a test for it"]);
    expect(anthropicAssistantTexts(request)).toContain("the parser is in src/parse.ts");
    expect(anthropicRequestText(request)).not.toMatch(/handoff|earlier conversation/i);
    // Claude Code resumed the person's own session: the same transcript grew.
    const after = await s.t.client.provider.sessions.query({
      provider: "claude",
      workspaceRoot: s.t.workspaceDir,
    });
    expect(after.map((l) => [l.nativeThreadRef, l.threadId])).toEqual([[sessionId, threadId]]);
  }, 180_000);

  it("B6: adopting one session twice is CONFLICT naming its app thread (a retry under its command id is not); an unknown one is NOT_FOUND, another folder's PRECONDITION_FAILED; bad input is refused; nothing is appended", async () => {
    const s = await adoptionServer();
    const nativeId = await codexThreadOutside(s.home.dir, s.t.workspaceDir, ["hello"]);
    const adoptOnce = {
      projectId: s.projectId,
      provider: "codex" as const,
      providerThreadId: nativeId,
      commandId: "cmd_adopt_once",
    };
    const first = await s.t.client.thread.adopt.mutate(adoptOnce);
    const { threadId } = first;
    const head = await s.t.store.headSequence();
    // S4/B3: a retry under the same command id is the first answer again, not a conflict.
    expect(await s.t.client.thread.adopt.mutate(adoptOnce)).toEqual(first);
    /** Why adopting `providerThreadId` into the project is refused. */
    const adoptRefusal = (provider: "codex" | "claude", providerThreadId: string) =>
      refusal(
        s.t.client.thread.adopt.mutate({ projectId: s.projectId, provider, providerThreadId }),
      );
    const twice = await adoptRefusal("codex", nativeId);
    expect(twice.code).toBe("CONFLICT");
    expect(twice.message).toContain(threadId);
    const missingCodex = await adoptRefusal("codex", "019a0000-0000-7000-8000-000000000000");
    expect(missingCodex.code).toBe("NOT_FOUND");
    const missingClaude = await adoptRefusal("claude", "00000000-0000-4000-8000-000000000000");
    expect(missingClaude.code).toBe("NOT_FOUND");
    // A session of another folder is not this project's to continue (Claude keys it by folder).
    const elsewhere = mkdtempSync(join(tmpdir(), "skein-adopt-elsewhere-"));
    cleanups.push(() => rmSync(elsewhere, { recursive: true, force: true }));
    const foreign = await codexThreadOutside(s.home.dir, elsewhere, ["unrelated"]);
    const otherFolder = await adoptRefusal("codex", foreign);
    expect(otherFolder.code).toBe("PRECONDITION_FAILED");
    expect(otherFolder.message).toContain(elsewhere);
    const badProvider = await adoptRefusal("gemini" as unknown as "codex", nativeId);
    expect(badProvider.code).toBe("BAD_REQUEST");
    const relative = await refusal(
      s.t.client.provider.sessions.query({ provider: "codex", workspaceRoot: "relative/dir" }),
    );
    expect(relative.code).toBe("BAD_REQUEST");
    expect(await s.t.store.headSequence()).toBe(head);
  }, 180_000);

  it("provider.status lists each provider's capability declarations (the README table's source)", async () => {
    const s = await adoptionServer();
    const statuses = await s.t.client.provider.status.query();
    expect(statuses.find((x) => x.provider === "codex")?.capabilities).toEqual(CODEX_CAPABILITIES);
    expect(statuses.find((x) => x.provider === "claude")?.capabilities).toEqual(
      CLAUDE_CAPABILITIES,
    );
  }, 60_000);
});
