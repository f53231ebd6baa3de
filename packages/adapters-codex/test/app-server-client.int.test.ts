import { describe, expect, test } from "vitest";
import { CodexAppServerClient } from "../src/rpc/app-server-client.ts";
import { CodexProcessExitedError, CodexRpcError } from "../src/rpc/errors.ts";
import { resolveCodexConfig } from "../src/config/codex-config.ts";
import { CodexHarness } from "./support/codex-harness.ts";
import { messageTexts, responsesSlowTextReply, responsesTextReply } from "@skein/fake-models";

describe("codex app-server client (real binary)", () => {
  test("handshake reports the server and logs both directions", async () => {
    const harness = await CodexHarness.forTest();
    const info = harness.client.initialized;
    expect(info.codexHome).toBe(harness.home.dir);
    expect(info.userAgent).toContain("0.171.0");

    const frames = harness.sink.frames;
    expect(frames[0]).toMatchObject({
      direction: "outgoing",
      messageKind: "request",
      method: "initialize",
      jsonRpcId: 1,
      provider: "codex",
      providerSessionId: "pss_test",
    });
    expect(frames[0]?.payload).not.toHaveProperty("jsonrpc");
    expect(frames).toContainEqual(
      expect.objectContaining({ direction: "incoming", messageKind: "response", jsonRpcId: 1 }),
    );
    expect(frames).toContainEqual(
      expect.objectContaining({
        direction: "outgoing",
        messageKind: "notification",
        method: "initialized",
      }),
    );
  });

  test("thread starts sent at once go to the runtime at most four at a time, and all are answered", async () => {
    const harness = await CodexHarness.forTest();
    const threads = await Promise.all(Array.from({ length: 12 }, () => harness.startThread()));
    expect(new Set(threads.map((t) => t.id)).size).toBe(12);
    const starts = new Set<unknown>();
    let outstanding = 0;
    let most = 0;
    for (const frame of harness.sink.frames) {
      if (frame.direction === "outgoing" && frame.method === "thread/start") {
        starts.add(frame.jsonRpcId);
        outstanding += 1;
        most = Math.max(most, outstanding);
      } else if (frame.direction === "incoming" && starts.has(frame.jsonRpcId)) {
        outstanding -= 1;
      }
    }
    expect(starts.size).toBe(12);
    expect(most).toBe(4);
    expect(harness.client.pendingRequests).toBe(0);
  });

  test("a turn streams text deltas and completes; the next turn carries it as history", async () => {
    const harness = await CodexHarness.forTest({
      script: [responsesTextReply("First answer here"), responsesTextReply("Second answer")],
    });
    const thread = await harness.startThread();
    expect(thread.historyMode).toBe("paginated");

    const first = await harness.runTurn(thread.id, "first question");
    expect(first.turn.status).toBe("completed");
    const methods = first.notifications.map((n) => n.method);
    expect(methods).toEqual(
      expect.arrayContaining([
        "turn/started",
        "item/started",
        "item/agentMessage/delta",
        "item/completed",
      ]),
    );
    expect(methods.at(-1)).toBe("turn/completed");
    const deltas = first.notifications.flatMap((n) =>
      n.method === "item/agentMessage/delta" ? [n.params.delta] : [],
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("First answer here");
    const completedMessage = first.notifications.find(
      (n) => n.method === "item/completed" && n.params.item.type === "agentMessage",
    );
    expect(completedMessage?.params).toMatchObject({ item: { text: "First answer here" } });
    // Every delivered notification points at its raw-log record.
    for (const n of first.notifications) expect(n.rawEventId).toMatch(/^raw_\d+$/);

    await harness.runTurn(thread.id, "second question");
    const second = harness.server.requests[1];
    if (!second) throw new Error("no second model request");
    expect(messageTexts(second, "user")).toEqual(
      expect.arrayContaining(["first question", "second question"]),
    );
    expect(messageTexts(second, "assistant")).toContain("First answer here");
  });

  test("notifications are also available as an async stream", async () => {
    const harness = await CodexHarness.forTest({ script: [responsesTextReply("streamed")] });
    const thread = await harness.startThread();
    const stream = harness.client.notifications();
    const { turn } = await harness.startTurn(thread.id, "hello");
    const seen: string[] = [];
    for await (const n of stream) {
      seen.push(n.method);
      if (n.method === "turn/completed" && n.params.turn.id === turn.id) break;
    }
    expect(seen).toContain("item/agentMessage/delta");
  });

  test("a JSON-RPC error is a typed CodexRpcError", async () => {
    const harness = await CodexHarness.forTest();
    const error = await harness.client
      .request("thread/read", { threadId: "00000000-0000-0000-0000-000000000000" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodexRpcError);
    expect((error as CodexRpcError).method).toBe("thread/read");
  });

  test("SIGKILL mid-turn rejects pending requests and ends streams with a typed error", async () => {
    const harness = await CodexHarness.forTest({
      script: [responsesSlowTextReply(["one ", "two ", "three ", "four ", "five "], 300)],
    });
    const thread = await harness.startThread();
    const stream = harness.client.notifications();
    const from = harness.log.size;
    await harness.startTurn(thread.id, "long one");
    await harness.log.waitFor((n) => n.method === "item/agentMessage/delta", { from });

    const pending = harness.client.request("thread/read", {
      threadId: thread.id,
      includeTurns: true,
    });
    harness.client.kill("SIGKILL");
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodexProcessExitedError);
    expect((error as CodexProcessExitedError).exit).toMatchObject({
      signal: "SIGKILL",
      expected: false,
    });

    await expect(async () => {
      for await (const _ of stream) {
        // drain until the crash surfaces
      }
    }).rejects.toBeInstanceOf(CodexProcessExitedError);
    expect(harness.client.alive).toBe(false);
    await expect(
      harness.client.request("thread/read", { threadId: thread.id }),
    ).rejects.toBeInstanceOf(CodexProcessExitedError);
  });

  test("close() stops the process gracefully and marks the exit expected", async () => {
    const harness = await CodexHarness.forTest();
    const exit = await harness.client.close();
    expect(exit).toMatchObject({ exitCode: 0, expected: true });
  });

  test("a binary that cannot be spawned fails start() with a typed error", async () => {
    const config = resolveCodexConfig({ binaryPath: "/nonexistent/codex", codexHome: "/tmp" });
    const error = await CodexAppServerClient.start({ config, providerSessionId: "pss_x" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CodexProcessExitedError);
    expect((error as CodexProcessExitedError).exit.spawnError).toContain("ENOENT");
  });
});
