import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { until } from "./support/until.ts";

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

const color = {
  id: "q_color",
  question: "Which color?",
  options: [{ label: "red", description: "warm" }, { label: "blue" }],
};

describe("request.pending: P5 across threads", () => {
  it("lists every thread's waiting requests with their question ids; answers keyed by them reach the provider", async () => {
    const { projectId } = await t.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: t.workspaceDir,
    });
    const threads: string[] = [];
    for (const title of ["first", "second"]) {
      const { threadId } = await t.client.thread.create.mutate({ projectId, title });
      t.codex.enqueue([
        { type: "question", questions: [color] },
        { type: "text", text: `answered in ${title}` },
      ]);
      await t.client.thread.sendMessage.mutate({ threadId, text: "ask me" });
      threads.push(threadId);
    }
    const [first, second] = threads as [string, string];

    const all = await until(
      () => t.client.request.pending.query(),
      (list) => list.requests.length === 2,
    );
    expect(all.snapshotSequence).toBeGreaterThan(0);
    expect(new Set(all.requests.map((r) => r.threadId))).toEqual(new Set(threads));
    for (const request of all.requests) {
      expect(request).toMatchObject({ kind: "user_input", status: "pending", answerable: true });
      expect(request.questions).toEqual([
        {
          id: "q_color",
          header: null,
          question: "Which color?",
          options: [
            { label: "red", description: "warm" },
            { label: "blue", description: null },
          ],
          multiSelect: false,
        },
      ]);
    }
    const onlyFirst = await t.client.request.pending.query({ threadId: first });
    expect(onlyFirst.requests.map((r) => r.threadId)).toEqual([first]);

    const request = onlyFirst.requests[0]!;
    await t.client.request.respond.mutate({
      requestId: request.id,
      decision: "accept",
      answers: { [request.questions[0]!.id]: "red" },
    });
    const delivered = t.codex.calls.filter((c) => c.op === "respondToRequest");
    expect(delivered.map((c) => (c.args as { answer: unknown }).answer)).toEqual([
      expect.objectContaining({ answers: { q_color: "red" } }),
    ]);
    const left = await until(
      () => t.client.request.pending.query(),
      (list) => list.requests.length === 1,
    );
    expect(left.requests.map((r) => r.threadId)).toEqual([second]);
  });

  it("an unknown thread is NOT_FOUND and a malformed id BAD_REQUEST", async () => {
    expect((await refusal(t.client.request.pending.query({ threadId: "thr_missing" }))).code).toBe(
      "NOT_FOUND",
    );
    expect((await refusal(t.client.request.pending.query({ threadId: "nope" }))).code).toBe(
      "BAD_REQUEST",
    );
  });
});
