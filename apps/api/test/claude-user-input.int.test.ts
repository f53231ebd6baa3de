import { rmSync } from "node:fs";
import { createClaudeAdapter } from "@skein/adapters-claude";
import type { RunId } from "@skein/domain";
import {
  anthropicTextReply,
  anthropicToolNames,
  anthropicToolResults,
  anthropicToolUseReply,
  type FakeMessagesServer,
  startFakeMessagesServer,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

type Stack = { t: TestServer & { orchestrator: Orchestrator }; anthropic: FakeMessagesServer };
let stack: Stack | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await stack?.t.close();
  await stack?.anthropic.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  stack = undefined;
});

/** The HTTP API over the real orchestrator, the real Claude Agent SDK and `claude` binary. */
async function start(): Promise<Stack> {
  const anthropic = await startFakeMessagesServer();
  const configDir = tempDir("skein-claude-config-");
  dirs.push(configDir);
  const claude = createClaudeAdapter({ configDir, baseUrl: anthropic.url, apiKey: "test" });
  const t = await startTestServer({
    orchestrator: (store, dataDir) =>
      createOrchestrator({ store, adapters: { claude }, dataDir, sessionIdleMs: 0 }),
  });
  stack = { t, anthropic };
  return stack;
}

const ask = {
  questions: [
    {
      question: "Which color should the button be?",
      header: "Color",
      multiSelect: false,
      options: [
        { label: "Red", description: "warm" },
        { label: "Blue", description: "cool" },
      ],
    },
  ],
};

describe("Claude AskUserQuestion through the API (real SDK, fake model)", () => {
  // Full access approves every tool by itself, but a question still needs a person.
  it.each(["approval-required", "full-access"] as const)(
    "E15/E17 (%s): request.pending shows the question by id; request.respond's answer reaches the model as the tool result",
    async (runtimeMode) => {
      const { t, anthropic } = await start();
      anthropic.enqueue(
        anthropicToolUseReply("AskUserQuestion", ask, { id: "toolu_ask_1" }),
        anthropicTextReply("Painting it Blue"),
      );
      const { projectId } = await t.client.project.create.mutate({
        name: "ask",
        workspaceRoot: t.workspaceDir,
      });
      const { threadId } = await t.client.thread.create.mutate({
        projectId,
        provider: "claude",
        runtimeMode,
      });
      const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "ask me" });

      const pending = await eventually(async () => {
        const { requests } = await t.client.request.pending.query({ threadId });
        expect(requests).toHaveLength(1);
        return requests[0]!;
      }, 20_000);
      const [first] = anthropic.conversationRequests();
      expect(anthropicToolNames(first!)).toContain("AskUserQuestion");
      expect(pending).toMatchObject({ kind: "user_input", status: "pending", answerable: true });
      expect(pending.questions).toEqual([
        {
          id: "Color",
          header: "Color",
          question: "Which color should the button be?",
          options: [
            { label: "Red", description: "warm" },
            { label: "Blue", description: "cool" },
          ],
          multiSelect: false,
        },
      ]);

      await t.client.request.respond.mutate({
        requestId: pending.id,
        decision: "accept",
        answers: { [pending.questions[0]!.id]: "Blue" },
      });
      await t.orchestrator.waitForRun(runId as RunId);

      const afterAnswer = anthropic.conversationRequests()[1]!;
      const [result] = anthropicToolResults(afterAnswer);
      expect(result).toMatchObject({ toolUseId: "toolu_ask_1", isError: false });
      expect(result!.text).toContain('"Which color should the button be?"="Blue"');
      const state = await t.orchestrator.repository.thread(threadId);
      expect(state.runs.get(runId as RunId)?.status).toBe("completed");
      expect([...state.requests.values()][0]).toMatchObject({ status: "resolved" });
      const texts = [...state.turnItems.values()].flatMap(({ item }) =>
        item.type === "assistant_message" ? [item.text] : [],
      );
      expect(texts).toEqual(["Painting it Blue"]);
    },
  );
});
