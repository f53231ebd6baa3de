import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CheckpointId, ThreadExportDocument, ThreadId } from "@skein/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

/**
 * B3 across every pair of mutations: each mutation is applied once under its own command id,
 * then that id is sent with every other mutation (CONFLICT naming the first, nothing appended,
 * never a 500) and with its own (the first answer again, nothing appended).
 */
const PROCEDURES = [
  "project.create",
  "thread.create",
  "thread.sendMessage",
  "thread.fork",
  "handoff.edit",
  "handoff.regenerate",
  "request.respond",
  "thread.steer",
  "thread.interrupt",
  "thread.retryRun",
  "thread.rollback",
  "thread.updateSettings",
  "thread.archive",
  "thread.unarchive",
  "thread.compact",
  "thread.import",
] as const;
type Procedure = (typeof PROCEDURES)[number];

let t: ScriptedTestServer;
let workspace: string;
/** A thread exported from another server, so importing it here appends (and keeps a receipt). */
let exported: ThreadExportDocument;
const ids: Partial<Record<string, string>> = {};
const first = new Map<Procedure, unknown>();
const idOf = (procedure: Procedure) => `cmd_${procedure.replace(".", "_")}`;

const need = (name: string) => {
  const value = ids[name];
  if (value === undefined) throw new Error(`${name} is not known yet`);
  return value;
};

/** Each mutation with the payload it is first applied with (and replayed with). */
const calls: Record<Procedure, (commandId: string) => Promise<unknown>> = {
  "project.create": (commandId) =>
    t.client.project.create.mutate({ name: "Demo", workspaceRoot: workspace, commandId }),
  "thread.create": (commandId) =>
    t.client.thread.create.mutate({ projectId: need("projectId"), title: "main", commandId }),
  "thread.sendMessage": (commandId) =>
    t.client.thread.sendMessage.mutate({ threadId: need("threadId"), text: "one", commandId }),
  "thread.fork": (commandId) =>
    t.client.thread.fork.mutate({
      threadId: need("threadId"),
      isolatedWorkspace: false,
      commandId,
    }),
  "handoff.edit": (commandId) =>
    t.client.handoff.edit.mutate({ transferId: need("transferId"), text: "by hand", commandId }),
  "handoff.regenerate": (commandId) =>
    t.client.handoff.regenerate.mutate({ transferId: need("transferId"), commandId }),
  "request.respond": (commandId) =>
    t.client.request.respond.mutate({
      requestId: need("requestId"),
      decision: "accept",
      answers: { q_color: "red" },
      commandId,
    }),
  "thread.steer": (commandId) =>
    t.client.thread.steer.mutate({ threadId: need("threadId"), text: "faster", commandId }),
  "thread.interrupt": (commandId) =>
    t.client.thread.interrupt.mutate({ threadId: need("threadId"), commandId }),
  "thread.retryRun": (commandId) =>
    t.client.thread.retryRun.mutate({
      threadId: need("threadId"),
      runId: need("retriedRunId"),
      commandId,
    }),
  "thread.rollback": (commandId) =>
    t.client.thread.rollback.mutate({
      threadId: need("threadId"),
      checkpointId: need("checkpointId"),
      commandId,
    }),
  "thread.updateSettings": (commandId) =>
    t.client.thread.updateSettings.mutate({ threadId: need("forkId"), title: "fork", commandId }),
  "thread.archive": (commandId) =>
    t.client.thread.archive.mutate({ threadId: need("forkId"), commandId }),
  "thread.unarchive": (commandId) =>
    t.client.thread.unarchive.mutate({ threadId: need("forkId"), commandId }),
  "thread.compact": (commandId) =>
    t.client.thread.compact.mutate({ threadId: need("threadId"), commandId }),
  "thread.import": (commandId) => t.client.thread.import.mutate({ document: exported, commandId }),
};

const thread = (threadId: string) => t.orchestrator.repository.thread(threadId as ThreadId);

beforeAll(async () => {
  t = await startScriptedServer();
  workspace = mkdtempSync(join(tmpdir(), "skein-reuse-ws-"));
  const apply = async (procedure: Procedure) => {
    const answer = await calls[procedure](idOf(procedure));
    first.set(procedure, answer);
    return answer as Record<string, string>;
  };
  ids.projectId = (await apply("project.create")).projectId;
  ids.threadId = (await apply("thread.create")).threadId;
  t.codex.enqueue([
    { type: "file_change", path: "f.txt", diff: "", content: "one\n" },
    { type: "text", text: "done" },
  ]);
  const { runId } = await apply("thread.sendMessage");
  await t.orchestrator.waitForRun(runId!);
  ids.checkpointId = await eventually(async () => {
    const found = [...(await thread(need("threadId"))).checkpoints.values()].find(
      (c) => c.runId === runId && c.status === "ready",
    );
    if (!found) throw new Error("no checkpoint yet");
    return found.id as CheckpointId;
  });
  const fork = await apply("thread.fork");
  ids.forkId = fork.threadId;
  ids.transferId = fork.transferId;
  await apply("handoff.edit");
  await apply("handoff.regenerate");

  t.codex.enqueue([
    {
      type: "question",
      questions: [{ id: "q_color", question: "Which color?", options: [{ label: "red" }] }],
    },
    { type: "text", text: "red it is" },
    { type: "wait", ms: 20_000 },
  ]);
  const second = await t.client.thread.sendMessage.mutate({
    threadId: need("threadId"),
    text: "ask",
  });
  ids.requestId = await eventually(async () => {
    const { requests } = await t.client.request.pending.query({ threadId: need("threadId") });
    if (!requests[0]) throw new Error("no request yet");
    return requests[0].id;
  });
  await apply("request.respond");
  await eventually(async () => {
    const run = (await thread(need("threadId"))).runs.get(second.runId as never);
    expect(run?.status).toBe("running");
    expect((await thread(need("threadId"))).requests.size).toBeGreaterThan(0);
  });
  await eventually(() => apply("thread.steer"));
  await apply("thread.interrupt");
  await t.orchestrator.waitForRun(second.runId);
  ids.retriedRunId = second.runId;
  t.codex.enqueue([{ type: "text", text: "again" }]);
  await apply("thread.retryRun");
  await eventually(async () => {
    const run = (await thread(need("threadId"))).runs.get(second.runId as never);
    expect([run?.status, run?.error]).toEqual(["completed", null]);
  });
  await apply("thread.rollback");
  await apply("thread.updateSettings");
  await apply("thread.archive");
  await apply("thread.unarchive");
  t.codex.enqueue([{ type: "text", text: "compacted" }]);
  const compacted = await apply("thread.compact");
  await t.orchestrator.waitForRun(compacted.runId as never);
  exported = await exportedElsewhere();
  await apply("thread.import");
}, 120_000);

async function exportedElsewhere(): Promise<ThreadExportDocument> {
  const other = await startScriptedServer();
  try {
    const { projectId } = await other.client.project.create.mutate({
      name: "Elsewhere",
      workspaceRoot: workspace,
    });
    const { threadId } = await other.client.thread.create.mutate({ projectId, title: "away" });
    return await other.client.thread.export.query({ threadId });
  } finally {
    await other.close();
  }
}

afterAll(async () => {
  await t?.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe("B3: a command id answers only the mutation it was first used by", () => {
  it("every mutation was applied once under its own id", () => {
    expect([...first.keys()].sort()).toEqual([...PROCEDURES].sort());
  });

  it.each(PROCEDURES)(
    "B3: %s's id sent with every other mutation is CONFLICT naming it; nothing is appended",
    async (owner) => {
      const head = await t.store.headSequence();
      for (const other of PROCEDURES.filter((p) => p !== owner)) {
        const refused = await refusal(calls[other](idOf(owner)));
        expect({ other, code: refused.code, status: refused.httpStatus }).toEqual({
          other,
          code: "CONFLICT",
          status: 409,
        });
        expect(refused.message).toContain(owner);
        expect(await t.store.headSequence()).toBe(head);
      }
    },
  );

  it("B3: the same mutation under a used id with another payload (another thread, other text) is CONFLICT", async () => {
    const head = await t.store.headSequence();
    const commandId = idOf("thread.sendMessage");
    for (const payload of [
      { threadId: need("forkId"), text: "one", commandId },
      { threadId: need("threadId"), text: "two", commandId },
      { threadId: need("threadId"), text: "one", provider: "claude" as const, commandId },
    ]) {
      const refused = await refusal(t.client.thread.sendMessage.mutate(payload));
      expect(refused.code).toBe("CONFLICT");
      expect(refused.message).toMatch(/thread\.sendMessage with a different payload/);
    }
    expect(await t.store.headSequence()).toBe(head);
  });

  it.each(PROCEDURES)(
    "S4: %s replayed under its id gives its first answer and appends nothing",
    async (procedure) => {
      const head = await t.store.headSequence();
      expect(await calls[procedure](idOf(procedure))).toEqual(first.get(procedure));
      expect(await t.store.headSequence()).toBe(head);
    },
  );
});
