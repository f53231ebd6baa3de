import { rmSync } from "node:fs";
import {
  anthropicTextReply,
  type FakeMessagesServer,
  startFakeMessagesServer,
} from "@skein/fake-models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../src/env.ts";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";
import { registerConfiguredAgents } from "../src/providers/provider-registry.ts";
import { claudeAcpAgentEntry } from "./support/claude-acp-agent.ts";
import { refusal } from "./support/errors.ts";
import { startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

type Item = { type: string; text?: string | null };

let t: TestServer & { orchestrator: Orchestrator };
let anthropic: FakeMessagesServer;
const claudeConfigDir = tempDir("skein-claude-acp-config-");

beforeAll(async () => {
  anthropic = await startFakeMessagesServer();
  // What a person would put in SKEIN_ACP_AGENTS: a real ACP agent on the fake Anthropic API, and
  // an agent whose binary is not there.
  const env = {
    SKEIN_ACP_AGENTS: JSON.stringify([
      claudeAcpAgentEntry(anthropic.url, claudeConfigDir),
      { id: "ghost", name: "Ghost agent", command: "/nonexistent/ghost-agent" },
    ]),
  };
  t = await startTestServer({
    orchestrator: async (store, dataDir) => {
      const registered = await registerConfiguredAgents({ env, dataDir });
      const adapters = Object.fromEntries(registered.map((r) => [r.id, r.createAdapter()]));
      return createOrchestrator({ store, adapters, dataDir, sessionIdleMs: 0 });
    },
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await anthropic?.close();
  rmSync(claudeConfigDir, { recursive: true, force: true });
});

describe("B18 configured ACP agents are providers end to end (real claude-agent-acp)", () => {
  it("B18 provider.status lists each configured agent by its name; one that cannot run says why", async () => {
    const statuses = await t.client.provider.status.query();
    const agent = statuses.find((s) => s.provider === "claude-acp");
    expect(agent).toMatchObject({
      name: "Claude (ACP)",
      found: true,
      ready: true,
      lastError: null,
    });
    // Capabilities from the agent's own initialize: claude-agent-acp declares load and fork.
    expect(agent?.capabilities).toMatchObject({ resume: true, nativeFork: true });
    const ghost = statuses.find((s) => s.provider === "ghost");
    expect(ghost).toMatchObject({ found: false, ready: false });
    expect(ghost?.lastError).toMatch(/\/nonexistent\/ghost-agent is missing or not executable/);
    // The built-in providers this server does not run are listed too, not configured.
    expect(statuses.map((s) => s.provider)).toEqual([
      "codex",
      "claude",
      "gemini",
      "claude-acp",
      "ghost",
    ]);
  }, 60_000);

  it("B18 provider.models reads the agent's own model list", async () => {
    const models = await t.client.provider.models.query({ provider: "claude-acp" });
    expect(models.length).toBeGreaterThan(0);
    expect(models.filter((m) => m.isDefault).length).toBeLessThanOrEqual(1);
  }, 60_000);

  it("B18 a thread created on the agent runs a message through it to the model", async () => {
    anthropic.enqueue(anthropicTextReply("hello from the configured agent"));
    const { projectId } = await t.client.project.create.mutate({
      name: "ACP",
      workspaceRoot: t.workspaceDir,
    });
    const { threadId } = await t.client.thread.create.mutate({ projectId, provider: "claude-acp" });
    const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "say hello" });
    await t.orchestrator.waitForRun(runId);
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.runs).toHaveLength(1);
    expect(detail.runs[0]).toMatchObject({ provider: "claude-acp", status: "completed" });
    const items = (detail.visibleTurnItems ?? detail.turnItems) as readonly Item[];
    expect(items.filter((i) => i.type === "assistant_message").map((i) => i.text)).toEqual([
      "hello from the configured agent",
    ]);
    const asked = anthropic.conversationRequests().map((r) => JSON.stringify(r.body));
    expect(asked.some((body) => body.includes("say hello"))).toBe(true);
  }, 120_000);

  it("B18 a message to the agent that cannot run is refused in its words; nothing appended", async () => {
    const { projectId } = await t.client.project.create.mutate({
      name: "Ghost",
      workspaceRoot: t.workspaceDir,
    });
    const { threadId } = await t.client.thread.create.mutate({ projectId, provider: "ghost" });
    const head = await t.store.headSequence();
    const refused = await refusal(t.client.thread.sendMessage.mutate({ threadId, text: "hi" }));
    expect(refused.code).toBe("PRECONDITION_FAILED");
    expect(refused.message).toMatch(/ghost-agent is missing or not executable/);
    expect(await t.store.headSequence()).toBe(head);
  }, 60_000);

  it("B18 an agent id this server does not run, or a malformed one, is refused in words", async () => {
    const { projectId } = await t.client.project.create.mutate({
      name: "Unknown",
      workspaceRoot: t.workspaceDir,
    });
    const head = await t.store.headSequence();
    const unknown = await refusal(
      t.client.thread.create.mutate({ projectId, provider: "not-here" as "codex" }),
    );
    expect(unknown.code).toBe("BAD_REQUEST");
    expect(unknown.message).toMatch(/no provider "not-here" runs on this server.*SKEIN_ACP_AGENTS/);
    const malformed = await refusal(
      t.client.thread.create.mutate({ projectId, provider: "Not An Id!" as "codex" }),
    );
    expect(malformed.code).toBe("BAD_REQUEST");
    expect(await t.store.headSequence()).toBe(head);
  });
});

describe("B18 a malformed SKEIN_ACP_AGENTS refuses the server's start in words", () => {
  it.each([
    ["not JSON", "[{", /SKEIN_ACP_AGENTS is not JSON/],
    ["not an array", '{"id":"x"}', /SKEIN_ACP_AGENTS must be a JSON array of agents/],
    ["an entry without a usable id", '[{"command":"sh"}]', /SKEIN_ACP_AGENTS\[0\]: id must be/],
  ])("%s", async (_case, value, words) => {
    const attempt = registerConfiguredAgents({
      env: { SKEIN_ACP_AGENTS: value },
      dataDir: tempDir(),
    });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(words);
  });
});
