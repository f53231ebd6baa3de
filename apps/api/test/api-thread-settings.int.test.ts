import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RouterOutputs } from "@skein/contract";
import { refusal } from "./support/errors.ts";
import { Recorder } from "./support/recorder.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { until } from "./support/until.ts";

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

const newThread = (title = "settings") => t.newThread(title);

const shellIds = async (archived?: boolean) =>
  (
    await t.client.thread.shells.query(archived === undefined ? undefined : { archived })
  ).threads.map((shell) => shell.id);

describe("thread.updateSettings", () => {
  it("renames and changes the defaults; shells and detail show them at once", async () => {
    const threadId = await newThread("Main thread (fork)");
    await t.client.thread.updateSettings.mutate({
      threadId,
      title: "Fix the parser",
      defaultProvider: "claude",
      model: "claude-sonnet",
      runtimeMode: "full-access",
    });
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.thread.title).toBe("Fix the parser");
    expect(detail.thread.defaultProvider).toBe("claude");
    expect(detail.thread.modelSelection.model).toBe("claude-sonnet");
    expect(detail.thread.runtimeMode).toBe("full-access");
    const shell = (await t.client.thread.shells.query()).threads.find((s) => s.id === threadId);
    expect(shell?.title).toBe("Fix the parser");
    expect(shell?.defaultProvider).toBe("claude");

    // Only the given field changes.
    await t.client.thread.updateSettings.mutate({ threadId, title: "Parser" });
    const after = await t.client.thread.detail.query({ threadId });
    expect(after.thread.title).toBe("Parser");
    expect(after.thread.defaultProvider).toBe("claude");
  });

  it("refuses an empty change, a bad title and an unknown thread, changing nothing", async () => {
    const threadId = await newThread("kept");
    const empty = await refusal(t.client.thread.updateSettings.mutate({ threadId }));
    expect(empty.code).toBe("BAD_REQUEST");
    expect(empty.message).toMatch(/nothing to change/);
    const blank = await refusal(t.client.thread.updateSettings.mutate({ threadId, title: "" }));
    expect(blank.code).toBe("BAD_REQUEST");
    const nul = await refusal(
      t.client.thread.updateSettings.mutate({ threadId, title: "a\u0000b" }),
    );
    expect(nul.code).toBe("BAD_REQUEST");
    const unknown = await refusal(
      t.client.thread.updateSettings.mutate({ threadId: "thr_unknown" as never, title: "x" }),
    );
    expect(unknown.code).toBe("NOT_FOUND");
    expect((await t.client.thread.detail.query({ threadId })).thread.title).toBe("kept");
  });
});

describe("thread.archive / thread.unarchive and the archived list", () => {
  it("moves a thread between the default list and the archived list", async () => {
    const threadId = await newThread("to archive");
    const other = await newThread("stays");
    expect(await shellIds()).toEqual(expect.arrayContaining([threadId, other]));
    expect(await shellIds(true)).toEqual([]);

    await t.client.thread.archive.mutate({ threadId });
    expect(await shellIds()).toEqual([other]);
    expect(await shellIds(false)).toEqual([other]);
    expect(await shellIds(true)).toEqual([threadId]);

    await t.client.thread.unarchive.mutate({ threadId });
    expect(await shellIds(true)).toEqual([]);
    expect(await shellIds()).toEqual(expect.arrayContaining([threadId, other]));
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.thread.archivedAt).toBeNull();

    // Back to active: it takes messages again.
    t.codex.enqueue([{ type: "text", text: "back" }]);
    await t.client.thread.sendMessage.mutate({ threadId, text: "hello again" });
    await until(
      () => t.client.thread.detail.query({ threadId }),
      (d) => d.runs.length === 1 && d.runs[0]!.status === "completed",
    );
  });

  it("watchShells snapshots follow the same filter as shells", async () => {
    const threadId = await newThread("archived one");
    const other = await newThread("live one");
    await t.client.thread.archive.mutate({ threadId });
    const listed = async (input: { archived?: boolean } | undefined) => {
      const recorder = new Recorder<RouterOutputs["thread"]["shells"]>();
      const sub = t.client.thread.watchShells.subscribe(input, recorder.handlers);
      try {
        await recorder.until(() => recorder.snapshots.length === 1, 10_000, "the snapshot");
        return recorder.snapshots[0]!.threads.map((shell) => shell.id);
      } finally {
        sub.unsubscribe();
      }
    };
    expect(await listed(undefined)).toEqual([other]);
    expect(await listed({ archived: true })).toEqual([threadId]);
  });

  it("refuses unarchiving an active thread, archiving twice and unknown threads", async () => {
    const threadId = await newThread();
    const notArchived = await refusal(t.client.thread.unarchive.mutate({ threadId }));
    expect(notArchived.code).toBe("PRECONDITION_FAILED");
    expect(notArchived.message).toMatch(/not archived/);
    await t.client.thread.archive.mutate({ threadId });
    const twice = await refusal(t.client.thread.archive.mutate({ threadId }));
    expect(twice.message).toMatch(/already archived/);
    const unknown = await refusal(
      t.client.thread.unarchive.mutate({ threadId: "thr_unknown" as never }),
    );
    expect(unknown.code).toBe("NOT_FOUND");
  });

  it("issue 13: archiving cancels the queued run and interrupts the active one", async () => {
    const threadId = await newThread("busy");
    const question = { id: "q_wait", question: "Go on?", options: [{ label: "yes" }] };
    t.codex.enqueue([
      { type: "text", text: "a1" },
      { type: "question", questions: [question] },
      { type: "text", text: "a2" },
    ]);
    t.codex.enqueue([{ type: "text", text: "never" }]);
    await t.client.thread.sendMessage.mutate({ threadId, text: "first" });
    await until(
      () => t.client.request.pending.query({ threadId }),
      (list) => list.requests.length === 1,
    );
    await t.client.thread.sendMessage.mutate({ threadId, text: "second" });
    const before = await t.client.thread.detail.query({ threadId });
    expect(before.runs.map((r) => r.status)).toEqual(["waiting", "queued"]);

    await t.client.thread.archive.mutate({ threadId });
    const settled = await until(
      () => t.client.thread.detail.query({ threadId }),
      (d) => d.runs[0]!.status !== "waiting" && d.runs[0]!.status !== "running",
    );
    expect(settled.runs.map((r) => r.status)).toEqual(["interrupted", "cancelled"]);
    expect(settled.thread.archivedAt).not.toBeNull();
    // Nothing starts afterwards: the queue is empty and the thread takes no new work.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = await t.client.thread.detail.query({ threadId });
    expect(later.runs.map((r) => r.status)).toEqual(["interrupted", "cancelled"]);
    const refused = await refusal(t.client.thread.sendMessage.mutate({ threadId, text: "more" }));
    expect(refused.message).toMatch(/archived/);
  });
});

describe("thread.promote refusals", () => {
  it("T9: refuses a thread that is not a sub-agent's child (CONFLICT, in words), an unknown and a malformed id", async () => {
    const threadId = await newThread();
    const root = await refusal(t.client.thread.promote.mutate({ threadId }));
    expect(root.code).toBe("CONFLICT");
    expect(root.message).toMatch(/not a sub-agent's child thread/);
    const unknown = await refusal(
      t.client.thread.promote.mutate({ threadId: "thr_unknown" as never }),
    );
    expect(unknown.code).toBe("NOT_FOUND");
    const malformed = await refusal(t.client.thread.promote.mutate({ threadId: "nope" as never }));
    expect(malformed.code).toBe("BAD_REQUEST");
    expect((await t.client.thread.detail.query({ threadId })).thread.lineage).toMatchObject({
      parentThreadId: null,
    });
  });
});
