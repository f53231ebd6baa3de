import fs from "node:fs";
import {
  anthropicBashReply,
  createCodexTestHome,
  execCommandReply,
  responsesTextReply,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import { type ChildServer, spawnEntry } from "./support/child-server.ts";
import { useCleanups } from "./support/cleanups.ts";
import { until } from "./support/until.ts";

const { cleanups, dir } = useCleanups();

function startApi(env: Record<string, string>): ChildServer {
  const server = spawnEntry("src/main.ts", env);
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGKILL");
    }
    await server.exited;
  });
  return server;
}

describe("E15 across a crash of the real API process", () => {
  it("after SIGKILL and a restart, the Codex and the Claude approval stay listed as not_resumable with the reason", async () => {
    const openai = await startFakeResponsesServer();
    cleanups.push(() => openai.close());
    const anthropic = await startFakeMessagesServer();
    cleanups.push(() => anthropic.close());
    const workspace = dir("skein-crash-ws-");
    openai.enqueue(execCommandReply("echo codex > codex.txt"), responsesTextReply("CODEX-AFTER"));
    anthropic.enqueue(anthropicBashReply("echo claude > claude.txt"));
    const home = await createCodexTestHome({ baseUrl: openai.url, model: "gpt-5.5" });
    cleanups.push(() => home.remove());
    const env = {
      SKEIN_API_PORT: "0",
      SKEIN_DATA_DIR: dir("skein-crash-"),
      CODEX_HOME: home.dir,
      RUST_LOG: "error",
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: "test",
      CLAUDE_CONFIG_DIR: dir("skein-crash-claude-"),
    };
    const first = startApi(env);
    await first.ready;
    let client = createSkeinClient({ url: first.url });
    const { projectId } = await client.project.create.mutate({
      name: "p",
      workspaceRoot: workspace,
    });
    const threads: string[] = [];
    for (const provider of ["codex", "claude"] as const) {
      const { threadId } = await client.thread.create.mutate({
        projectId,
        provider,
        runtimeMode: "approval-required",
      });
      await client.thread.sendMessage.mutate({ threadId, text: `run it, ${provider}` });
      threads.push(threadId);
    }
    const asked = await until(
      () => client.request.pending.query(),
      (list) => list.requests.length === 2,
      30_000,
    );
    expect(asked.requests.every((r) => r.answerable)).toBe(true);

    first.child.kill("SIGKILL");
    await first.exited;
    const second = startApi(env);
    await second.ready;
    client = createSkeinClient({ url: second.url });

    const listed = await client.request.pending.query();
    expect(listed.requests.map((r) => r.id).sort()).toEqual(asked.requests.map((r) => r.id).sort());
    for (const request of listed.requests) {
      expect(request).toMatchObject({
        status: "pending",
        answerable: false,
        responseCapability: { type: "not_resumable", reason: expect.stringMatching(/restarted/) },
      });
    }
    for (const threadId of threads) {
      const detail = await client.thread.detail.query({ threadId });
      expect(detail.pendingRequests).toEqual([
        expect.objectContaining({ answerable: false, threadId }),
      ]);
      expect(detail.runs.map((r) => r.status)).toEqual(["interrupted"]);
    }
    const refused = await client.request.respond
      .mutate({ requestId: listed.requests[0]!.id, decision: "accept" })
      .then(
        () => null,
        (error: unknown) => error as { data?: { code?: string }; message: string },
      );
    expect(refused?.data?.code).toBe("PRECONDITION_FAILED");
    expect(refused?.message).toMatch(/can no longer be answered: .*restarted/);
    expect(fs.existsSync(`${workspace}/codex.txt`)).toBe(false);
    expect(fs.existsSync(`${workspace}/claude.txt`)).toBe(false);

    // The thread moves on: the next message runs and the stranded request expires.
    const codexThread = threads[0]!;
    const { runId } = await client.thread.sendMessage.mutate({
      threadId: codexThread,
      text: "carry on",
    });
    await until(
      () => client.thread.detail.query({ threadId: codexThread }),
      (d) => d.runs.find((r) => r.id === runId)?.status === "completed",
      60_000,
    );
    const left = await client.request.pending.query();
    expect(left.requests.map((r) => r.threadId)).toEqual([threads[1]]);
  }, 120_000);
});
