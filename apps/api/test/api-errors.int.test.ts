import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_TEXT_BYTES } from "@skein/contract";
import { refusal } from "./support/errors.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;

beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

async function seedThread() {
  const { projectId } = await t.client.project.create.mutate({
    name: "Demo",
    workspaceRoot: t.workspaceDir,
  });
  const { threadId } = await t.client.thread.create.mutate({ projectId, title: "Main" });
  return { projectId, threadId };
}

describe("bad input is refused with the documented code and appends nothing", () => {
  it("malformed input → BAD_REQUEST with path-qualified issues", async () => {
    const { threadId } = await seedThread();
    const head = await t.store.headSequence();

    const badId = await refusal(t.client.thread.detail.query({ threadId: "nope" as never }));
    expect(badId.code).toBe("BAD_REQUEST");
    expect(badId.httpStatus).toBe(400);
    expect(badId.message).toMatch(/^threadId: expected a ThreadId/);
    expect(badId.issues).toEqual([
      { path: "threadId", message: expect.stringMatching(/ThreadId/) },
    ]);

    const nested = await refusal(
      t.client.thread.fork.mutate({
        threadId,
        sourcePoint: { type: "run", runId: "thr_not_a_run" as never },
      }),
    );
    expect(nested.code).toBe("BAD_REQUEST");
    expect(nested.message).toContain("sourcePoint.runId:");

    const relative = await refusal(
      t.client.project.create.mutate({ name: "x", workspaceRoot: "relative/dir" }),
    );
    expect(relative.code).toBe("BAD_REQUEST");
    expect(relative.message).toBe(
      'workspaceRoot: The folder path "relative/dir" is not absolute. Enter the full path, starting with "/".',
    );

    const badCommandId = await refusal(
      t.client.thread.archive.mutate({ threadId, commandId: "12" as never }),
    );
    expect(badCommandId.message).toMatch(/^commandId:/);

    const empty = await refusal(t.client.thread.sendMessage.mutate({ threadId, text: "" }));
    expect(empty.message).toBe("text: must not be empty");

    expect(await t.store.headSequence()).toBe(head);
  });

  it("unknown ids → NOT_FOUND", async () => {
    await seedThread();
    const head = await t.store.headSequence();
    const detail = await refusal(
      t.client.thread.detail.query({ threadId: "thr_unknown" as never }),
    );
    expect(detail).toMatchObject({ code: "NOT_FOUND", httpStatus: 404, domainCode: "not_found" });
    expect(detail.message).toBe("thread thr_unknown not found");

    const send = await refusal(
      t.client.thread.sendMessage.mutate({ threadId: "thr_unknown" as never, text: "hi" }),
    );
    expect(send.code).toBe("NOT_FOUND");
    const thread = await refusal(
      t.client.thread.create.mutate({ projectId: "prj_unknown" as never }),
    );
    expect(thread.code).toBe("NOT_FOUND");
    const transfer = await refusal(
      t.client.transfer.get.query({ transferId: "ctx_unknown" as never }),
    );
    expect(transfer.code).toBe("NOT_FOUND");
    const graph = await refusal(t.client.thread.graph.query({ threadId: "thr_unknown" as never }));
    expect(graph.code).toBe("NOT_FOUND");
    expect(await t.store.headSequence()).toBe(head);
  });

  it("oversized input → refused with a message naming the limit", async () => {
    const { threadId } = await seedThread();
    const head = await t.store.headSequence();

    const justOver = "x".repeat(MAX_TEXT_BYTES + 1);
    const over = await refusal(t.client.thread.sendMessage.mutate({ threadId, text: justOver }));
    expect(over.code).toBe("BAD_REQUEST");
    expect(over.message).toBe(`text: must be at most ${MAX_TEXT_BYTES} bytes (256 KiB)`);

    // Multi-byte text is measured in bytes, not characters.
    const wide = "é".repeat(MAX_TEXT_BYTES / 2 + 1);
    const wideRefusal = await refusal(t.client.thread.sendMessage.mutate({ threadId, text: wide }));
    expect(wideRefusal.message).toMatch(/^text: must be at most/);

    const tenMegabytes = "x".repeat(10 * 1024 * 1024);
    const huge = await refusal(
      t.client.thread.sendMessage.mutate({ threadId, text: tenMegabytes }),
    );
    expect(huge.code).toBe("PAYLOAD_TOO_LARGE");
    expect(huge.httpStatus).toBe(413);
    expect(huge.message).toMatch(/request body exceeds \d+ bytes/);

    expect(await t.store.headSequence()).toBe(head);
  });

  it("commands refused for the thread's state → PRECONDITION_FAILED / CONFLICT", async () => {
    const { threadId } = await seedThread();
    await t.client.thread.archive.mutate({ threadId });
    const head = await t.store.headSequence();
    const again = await refusal(t.client.thread.archive.mutate({ threadId }));
    expect(again).toMatchObject({ code: "PRECONDITION_FAILED", httpStatus: 412 });
    expect(again.message).toBe(`thread ${threadId} is already archived`);
    const idle = await refusal(t.client.thread.interrupt.mutate({ threadId }));
    expect(idle).toMatchObject({ code: "CONFLICT", httpStatus: 409, domainCode: "conflict" });
    expect(await t.store.headSequence()).toBe(head);
  });
});

describe("health", () => {
  it("health reports the log head", async () => {
    const { threadId } = await seedThread();
    const { sequence } = await t.client.thread.sendMessage.mutate({ threadId, text: "hello" });
    const health = await t.client.health.query();
    expect(health).toMatchObject({ ok: true, version: "0.1.0" });
    expect(health.sequence).toBeGreaterThanOrEqual(sequence);
  });
});
