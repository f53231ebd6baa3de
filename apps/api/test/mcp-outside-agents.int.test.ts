import { appendFileSync, rmSync } from "node:fs";
import { claudeSessionOutsideSkein } from "@skein/adapters-claude/testing";
import { codexThreadOutsideSkein } from "@skein/adapters-codex/testing";
import type { ProjectId, ProviderKind, StoredEvent, ThreadId } from "@skein/domain";
import {
  anthropicTextReply,
  anthropicToolResults,
  createCodexTestHome,
  functionCallOutputs,
  responsesTextReply,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RealProvidersServer,
  startRealProvidersServer,
} from "./support/real-providers-server.ts";
import {
  type AgentStep,
  type Answers,
  answerOf,
  claudeAgentModel,
  codexAgentModel,
} from "./support/scripted-agent.ts";
import { tempDir, workspaceProject } from "./support/test-server.ts";

// B19 acceptance: the real Codex (`codex app-server`, Skein's /mcp in its CODEX_HOME config) and
// the real Claude Code (Agent SDK `mcpServers`, type http with headers), each on a fake model
// scripted to use Skein's tools, create a thread, send it a message on the other provider, wait
// for its run and fork it. Skein runs that run on its own real provider (also on a fake model).

/** Real runtimes several turns deep: on a loaded machine a case takes well past the default. */
const SLOW = 150_000;
const TOKEN = "outside-agents-token-0123456789";
let t: RealProvidersServer;
let projectId: ProjectId;

beforeAll(async () => {
  t = await startRealProvidersServer({ token: TOKEN });
  projectId = await workspaceProject(t, "outside");
});
afterAll(async () => {
  await t?.close();
});

/** Create a thread on `provider`, send it a message, wait for the run, fork the thread. */
function script(agent: string, provider: ProviderKind): AgentStep[] {
  const threadId = (a: Answers) => a[0]?.threadId;
  return [
    {
      tool: "skein_create_thread",
      args: () => ({
        projectId,
        provider,
        title: `${agent}'s thread`,
        commandId: `cmd_${agent}_1`,
      }),
    },
    {
      tool: "skein_send_message",
      args: (a) => ({ threadId: threadId(a), text: `hello from ${agent}`, provider }),
    },
    {
      tool: "skein_wait_run",
      args: (a) => ({ threadId: threadId(a), runId: a[1]?.runId, timeoutMs: 60_000 }),
    },
    { tool: "skein_fork_thread", args: (a) => ({ threadId: threadId(a) }) },
    { say: (a) => `${provider} said: ${String(a[2]?.reply)}` },
  ];
}

async function startEvents(threadId: ThreadId): Promise<StoredEvent[]> {
  return (await t.store.readStream(`thread-${threadId}`)).filter(
    (e) => e.type === "ThreadCreated" || e.type === "ThreadForked",
  );
}

/**
 * What the agent's tools answered, checked against the log: the thread and its fork started by
 * `agentName`, the one run on `provider` completed, and the wait answered with its `reply`.
 */
async function expectAgentWork(
  answers: Answers,
  agentName: string,
  provider: ProviderKind,
  reply: string,
) {
  expect(answers).toHaveLength(4);
  const threadId = answers[0]?.threadId as ThreadId;
  const forkId = answers[3]?.threadId as ThreadId;
  const byAgent = { createdBy: "agent", agentName };
  expect((await startEvents(threadId))[0]?.data).toMatchObject({
    thread: { ...byAgent, defaultProvider: provider },
  });
  expect((await startEvents(forkId))[0]?.data).toMatchObject({
    thread: { ...byAgent, lineage: { parentThreadId: threadId, relationshipToParent: "fork" } },
  });
  const detail = await t.client.thread.detail.query({ threadId });
  expect(detail.runs.map((r) => ({ provider: r.provider, status: r.status }))).toEqual([
    { provider, status: "completed" },
  ]);
  expect(answers[2]).toMatchObject({ status: "completed", done: true, reply });
}

describe("B19: real agents drive Skein through its MCP server", () => {
  it(
    "B19: the real Codex creates a thread, runs it on Claude, waits, forks it; the log names Codex",
    async () => {
      t.anthropic.answerPrompt("hello from codex", anthropicTextReply("claude provider says hi"));
      const steps = script("codex", "claude");
      const model = await startFakeResponsesServer({ respond: codexAgentModel("skein", steps) });
      const home = await createCodexTestHome({ baseUrl: model.url, model: "gpt-5.5" });
      try {
        appendFileSync(
          `${home.dir}/config.toml`,
          `\n[mcp_servers.skein]\nurl = ${JSON.stringify(`${t.server.url}/mcp`)}\n` +
            `bearer_token_env_var = "SKEIN_MCP_TOKEN"\n`,
        );
        await codexThreadOutsideSkein(
          { codexHome: home.dir, env: { SKEIN_MCP_TOKEN: TOKEN, RUST_LOG: "error" } },
          t.workspaceDir,
          ["use skein"],
        );
        const last = model.requests.at(-1)!;
        const answers = functionCallOutputs(last).map((o) => answerOf(o.output));
        await expectAgentWork(answers, "codex-mcp-client", "claude", "claude provider says hi");
      } finally {
        await model.close();
        await home.remove();
      }
    },
    SLOW,
  );

  it(
    "B19: the real Claude Code creates a thread, runs it on Codex, waits, forks it; the log names Claude",
    async () => {
      t.openai.enqueue(responsesTextReply("codex provider says hi"));
      const steps = script("claude", "codex");
      const model = await startFakeMessagesServer({ respond: claudeAgentModel("skein", steps) });
      const configDir = tempDir("skein-claude-agent-");
      try {
        await claudeSessionOutsideSkein(
          { configDir, baseUrl: model.url, apiKey: "test" },
          t.workspaceDir,
          ["use skein"],
          {
            mcpServers: {
              skein: {
                type: "http",
                url: `${t.server.url}/mcp`,
                headers: { Authorization: `Bearer ${TOKEN}` },
              },
            },
            allowedTools: ["mcp__skein"],
          },
        );
        const last = model.conversationRequests().at(-1)!;
        const results = anthropicToolResults(last);
        expect(results.every((r) => !r.isError)).toBe(true);
        const answers = results.map((r) => answerOf(r.text));
        await expectAgentWork(answers, "claude-code", "codex", "codex provider says hi");
      } finally {
        await model.close();
        rmSync(configDir, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
