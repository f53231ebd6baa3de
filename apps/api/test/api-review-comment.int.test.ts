import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

const HUNK = "@@ -1,2 +1,3 @@\n export function greet(name: string): string {\n+  return name;";

describe("B17: a comment on a diff line in Review", () => {
  it("B17: becomes a message to the agent with file, line and hunk; a resend under its command id answers the same run", async () => {
    const threadId = await t.newThread();
    t.codex.enqueue([{ type: "text", text: "Done." }]);
    const input = {
      threadId,
      path: "src/app.ts",
      line: 2,
      diffHunk: HUNK,
      body: "return a greeting, not the bare name",
      commandId: "cmd_review_comment_1",
    };
    const sent = await t.client.review.comment.mutate(input);
    expect(await t.client.review.comment.mutate(input)).toEqual(sent);
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.runs).toHaveLength(1);
    const turns = () => t.codex.calls.filter((c) => c.op === "startTurn");
    await expect.poll(() => turns().length).toBe(1);
    const text = (turns()[0]!.args as { input: { text: string } }).input.text;
    expect(text).toContain("src/app.ts:2 — the person reviewing in Skein wrote:");
    expect(text).toContain("> return a greeting, not the bare name");
    expect(text).toContain("+  return name;");
  });

  it("B17: a path outside the workspace, an empty comment or an unknown thread is refused in words and sends nothing", async () => {
    const threadId = await t.newThread();
    const base = { threadId, path: "src/app.ts", line: 2, diffHunk: HUNK, body: "fix" };
    expect(
      await refusal(t.client.review.comment.mutate({ ...base, path: "../etc/passwd" })),
    ).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/inside the thread's workspace/),
    });
    expect(await refusal(t.client.review.comment.mutate({ ...base, body: "   " }))).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/write the comment first/),
    });
    expect(
      await refusal(t.client.review.comment.mutate({ ...base, threadId: "thr_missing" })),
    ).toMatchObject({ code: "NOT_FOUND" });
    expect((await t.client.thread.detail.query({ threadId })).runs).toHaveLength(0);
  });
});
