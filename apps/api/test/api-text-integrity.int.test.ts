import fs from "node:fs";
import path from "node:path";
import type { ContextTransferId, ProjectId, RuntimeRequestId, ThreadId } from "@skein/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { workspaceProject } from "./support/test-server.ts";

// B4 on every text input, over HTTP: a lone UTF-16 surrogate is refused with BAD_REQUEST naming
// the field, before anything is appended or sent to a provider; the same call with well-formed
// text gets past validation (it succeeds, or fails for another reason), so each row can fail.

const LONE = "a\ud800b";
const CONTROL = "ok 🚢";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const REQUEST_ID = "req_unknown" as RuntimeRequestId;

let t: ScriptedTestServer;
let projectId: ProjectId;
let threadId: ThreadId;
let transferId: ContextTransferId;
let attachmentRef: string;

beforeAll(async () => {
  t = await startScriptedServer();
  // The workspaceRoot row's control names this folder.
  fs.mkdirSync(path.join(t.workspaceDir, CONTROL));
  projectId = await workspaceProject(t, "p");
  ({ threadId } = await t.client.thread.create.mutate({ projectId }));
  await t.orchestrator.waitForRun(
    (await t.client.thread.sendMessage.mutate({ threadId, text: "hello" })).runId,
  );
  ({ transferId } = await t.client.thread.fork.mutate({ threadId }));
  const uploaded = await fetch(`${t.server.url}/attachments?name=pixel.png`, {
    method: "POST",
    headers: { "content-type": "image/png" },
    body: PNG,
  });
  attachmentRef = ((await uploaded.json()) as { ref: string }).ref;
  expect(attachmentRef).toMatch(/^sha256:/);
});
afterAll(async () => {
  await t.close();
});

/** What a run that already ended can still record after its waiter was answered. */
const BOOKKEEPING = new Set(["CheckpointScopeRecorded", "CheckpointRecorded"]);

async function appendedSince(head: number): Promise<string[]> {
  const events = await t.store.readAll(head);
  return events.filter((e) => !BOOKKEEPING.has(e.type)).map((e) => e.type);
}

type Row = [input: string, field: string, call: (text: string) => Promise<unknown>];

const ROWS: Row[] = [
  [
    "project.create name",
    "name",
    (name) => t.client.project.create.mutate({ name, workspaceRoot: t.workspaceDir }),
  ],
  [
    "project.create workspaceRoot",
    "workspaceRoot",
    (text) =>
      t.client.project.create.mutate({ name: "p", workspaceRoot: `${t.workspaceDir}/${text}` }),
  ],
  ["thread.create title", "title", (title) => t.client.thread.create.mutate({ projectId, title })],
  ["thread.create model", "model", (model) => t.client.thread.create.mutate({ projectId, model })],
  [
    "thread.sendMessage text",
    "text",
    (text) => t.client.thread.sendMessage.mutate({ threadId, text }),
  ],
  [
    "thread.sendMessage model",
    "model",
    (model) => t.client.thread.sendMessage.mutate({ threadId, text: "hi", model }),
  ],
  [
    "thread.sendMessage handoffText",
    "handoffText",
    (handoffText) => t.client.thread.sendMessage.mutate({ threadId, text: "hi", handoffText }),
  ],
  [
    "thread.sendMessage attachment name",
    "attachments[0].name",
    (name) =>
      t.client.thread.sendMessage.mutate({
        threadId,
        text: "see the file",
        attachments: [{ ref: attachmentRef, name }],
      }),
  ],
  ["thread.fork title", "title", (title) => t.client.thread.fork.mutate({ threadId, title })],
  [
    "thread.updateSettings title",
    "title",
    (title) => t.client.thread.updateSettings.mutate({ threadId, title }),
  ],
  [
    "thread.updateSettings model",
    "model",
    (model) => t.client.thread.updateSettings.mutate({ threadId, model }),
  ],
  ["thread.steer text", "text", (text) => t.client.thread.steer.mutate({ threadId, text })],
  ["handoff.edit text", "text", (text) => t.client.handoff.edit.mutate({ transferId, text })],
  [
    "request.respond answer",
    "answers.q1",
    (text) =>
      t.client.request.respond.mutate({
        requestId: REQUEST_ID,
        decision: "accept",
        answers: { q1: text },
      }),
  ],
  [
    "request.respond answer list",
    "answers.q1[1]",
    (text) =>
      t.client.request.respond.mutate({
        requestId: REQUEST_ID,
        decision: "accept",
        answers: { q1: ["ok", text] },
      }),
  ],
];

function providerCalls(): number {
  return t.codex.calls.length + t.claude.calls.length;
}

describe("B4: every text input refuses a lone surrogate, changing nothing", () => {
  it.each(ROWS)("%s", async (_input, field, call) => {
    const head = await t.store.headSequence();
    const calls = providerCalls();
    const refused = await refusal(call(LONE));
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.issues?.map((issue) => issue.path)).toEqual([field]);
    expect(refused.message).toContain("lone UTF-16 surrogate U+D800");
    // Nothing appended by the refused call. A previous row's run may still have its checkpoint
    // bookkeeping land now (seen: its CheckpointScopeRecorded after waitForRun resolved), which
    // is no effect of this call.
    expect(await appendedSince(head)).toEqual([]);
    expect(providerCalls()).toBe(calls);

    // The control: well-formed text is not a validation failure on this input.
    const control = await call(CONTROL).then(
      async (result) => {
        // A run the control started must end before the next row counts events.
        const runId = (result as { runId?: string }).runId;
        if (runId !== undefined) await t.orchestrator.waitForRun(runId as never);
        return null;
      },
      (error: unknown) => error,
    );
    if (control !== null)
      expect((await refusal(Promise.reject(control))).code).not.toBe("BAD_REQUEST");
  });

  it.each([
    [
      "project.create name",
      (text: string) =>
        t.client.project.create.mutate({ name: text, workspaceRoot: t.workspaceDir }),
    ],
    [
      "thread.create title",
      (text: string) => t.client.thread.create.mutate({ projectId, title: text }),
    ],
    ["thread.fork title", (text: string) => t.client.thread.fork.mutate({ threadId, title: text })],
    [
      "thread.updateSettings title",
      (text: string) => t.client.thread.updateSettings.mutate({ threadId, title: text }),
    ],
    [
      "thread.sendMessage attachment name",
      (text: string) =>
        t.client.thread.sendMessage.mutate({
          threadId,
          text: "see the file",
          attachments: [{ ref: attachmentRef, name: text }],
        }),
    ],
  ])("%s refuses NUL", async (_input, call) => {
    const head = await t.store.headSequence();
    const refused = await refusal(call("a\0b"));
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.message).toContain("NUL");
    expect(await appendedSince(head)).toEqual([]);
  });

  it("a message with a lone surrogate never reaches the provider; a proper pair does", async () => {
    const calls = providerCalls();
    await refusal(t.client.thread.sendMessage.mutate({ threadId, text: "\udfff" }));
    expect(providerCalls()).toBe(calls);
    const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "ship 🚢" });
    await t.orchestrator.waitForRun(runId);
    const sent = JSON.stringify(t.codex.calls.slice(calls));
    expect(sent).toContain("ship 🚢");
    expect(sent).not.toContain("\\udfff");
  });
});
