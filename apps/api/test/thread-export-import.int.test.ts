import type { RunId, ThreadId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

const servers: ScriptedTestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function server(): Promise<ScriptedTestServer> {
  const t = await startScriptedServer();
  servers.push(t);
  return t;
}

async function completed(t: ScriptedTestServer, threadId: ThreadId, text: string): Promise<RunId> {
  t.codex.enqueue([{ type: "text", text: `answer to ${text}` }]);
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text });
  await eventually(async () => {
    const { runs, checkpoints } = await t.client.thread.detail.query({ threadId });
    expect(runs.find((r) => r.id === runId)?.status).toBe("completed");
    expect(checkpoints.some((c) => c.runId === runId)).toBe(true);
  });
  return runId;
}

/** What a person sees of a thread, without the cursor (sequences differ between stores). */
async function views(t: ScriptedTestServer, threadId: ThreadId) {
  const { snapshotSequence: _d, ...detail } = await t.client.thread.detail.query({ threadId });
  const { snapshotSequence: _g, ...graph } = await t.client.thread.graph.query({ threadId });
  const { threads } = await t.client.thread.shells.query();
  return { detail, graph, shell: threads.find((s) => s.id === threadId) };
}

describe("thread export and import (issue 18)", () => {
  it("a fork exported from one data dir and imported into another reads the same, and goes on", async () => {
    const a = await server();
    const { projectId } = await a.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: a.workspaceDir,
    });
    const { threadId: main } = await a.client.thread.create.mutate({ projectId, title: "Main" });
    const first = await completed(a, main, "one");
    await completed(a, main, "two");
    const { threadId: fork } = await a.client.thread.fork.mutate({
      threadId: main,
      sourcePoint: { type: "run", runId: first },
    });
    await completed(a, fork, "three");
    const document = await a.client.thread.export.query({ threadId: fork });
    expect(document.streams.map((s) => s.streamId.split("-")[0])).toEqual(
      expect.arrayContaining(["project", "session", "thread"]),
    );
    // Dependencies first: the source thread before the fork, the fork last.
    expect(document.streams.at(-1)?.streamId).toBe(`thread-${fork}`);
    expect(document.streams.at(-2)?.streamId).toBe(`thread-${main}`);

    const b = await server();
    const result = await b.client.thread.import.mutate({ document });
    expect(result).toMatchObject({ threadId: fork, imported: document.streams.length });
    expect(result.alreadyPresent).toBe(0);
    expect(await views(b, fork)).toEqual(await views(a, fork));
    expect(await views(b, main)).toEqual(await views(a, main));

    // A repeat changes nothing.
    const head = await b.store.headSequence();
    const again = await b.client.thread.import.mutate({ document });
    expect(again).toMatchObject({ imported: 0, alreadyPresent: document.streams.length });
    expect(await b.store.headSequence()).toBe(head);

    // The imported fork is a thread like any other: its next run is number 3 of its own.
    const next = await completed(b, fork, "four");
    const { runs } = await b.client.thread.detail.query({ threadId: fork });
    expect(runs.map((r) => r.id)).toContain(next);
  }, 60_000);

  it("a malformed, mismatched or conflicting document is refused and appends nothing", async () => {
    const a = await server();
    const { projectId } = await a.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: a.workspaceDir,
    });
    const { threadId } = await a.client.thread.create.mutate({ projectId, title: "Main" });
    await completed(a, threadId, "one");
    const document = await a.client.thread.export.query({ threadId });
    const b = await server();
    const head = await b.store.headSequence();

    const tampered = structuredClone(document);
    const own = tampered.streams.find((s) => s.streamId === `thread-${threadId}`)!;
    own.events[1] = { type: "NoSuchEvent", data: {} };
    const malformed = await refusal(b.client.thread.import.mutate({ document: tampered }));
    expect(malformed.code).toBe("BAD_REQUEST");
    expect(malformed.message).toMatch(new RegExp(`thread-${threadId}.*events\\[1\\]`));

    const reordered = structuredClone(document);
    const events = reordered.streams.find((s) => s.streamId === `thread-${threadId}`)!.events;
    events.unshift(events.pop()!);
    expect((await refusal(b.client.thread.import.mutate({ document: reordered }))).code).toBe(
      "BAD_REQUEST",
    );

    const wrongFormat = { ...document, format: "something-else" } as unknown as typeof document;
    expect((await refusal(b.client.thread.import.mutate({ document: wrongFormat }))).code).toBe(
      "BAD_REQUEST",
    );
    expect(await b.store.headSequence()).toBe(head);

    // The same project already here with another history: nothing is imported.
    await b.client.thread.import.mutate({ document });
    const { threadId: other } = await a.client.thread.create.mutate({ projectId, title: "Other" });
    const second = await a.client.thread.export.query({ threadId: other });
    const projectStream = second.streams.find((s) => s.streamId.startsWith("project-"))!;
    projectStream.events[0] = structuredClone(projectStream.events[0]!);
    (projectStream.events[0].data as { project: { title: string } }).project.title = "Changed";
    const before = await b.store.headSequence();
    const conflict = await refusal(b.client.thread.import.mutate({ document: second }));
    expect(conflict.code).toBe("CONFLICT");
    expect(conflict.message).toMatch(/different history; nothing was imported/);
    expect(await b.store.headSequence()).toBe(before);
    expect((await b.client.thread.shells.query()).threads.map((s) => s.id)).not.toContain(other);
  }, 60_000);

  it("exporting an unknown thread is NOT_FOUND", async () => {
    const a = await server();
    const missing = await refusal(
      a.client.thread.export.query({ threadId: "thr_nope" as ThreadId }),
    );
    expect(missing.code).toBe("NOT_FOUND");
  });

  it("B8: thread.detail, graph and shells take atSequence over HTTP; beyond the head is BAD_REQUEST", async () => {
    const a = await server();
    const { projectId } = await a.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: a.workspaceDir,
    });
    const { threadId } = await a.client.thread.create.mutate({ projectId, title: "Before" });
    const before = await a.client.thread.detail.query({ threadId });
    await a.client.thread.updateSettings.mutate({ threadId, title: "After" });
    const then = await a.client.thread.detail.query({
      threadId,
      atSequence: before.snapshotSequence,
    });
    expect(then).toEqual(before);
    const shells = await a.client.thread.shells.query({ atSequence: before.snapshotSequence });
    expect(shells.threads.map((t) => t.title)).toEqual(["Before"]);
    const graph = await a.client.thread.graph.query({ threadId, atSequence: 0 }).catch((e) => e);
    expect(String(graph)).toMatch(/not found/i);
    const head = await a.store.headSequence();
    const beyond = await refusal(a.client.thread.detail.query({ threadId, atSequence: head + 1 }));
    expect(beyond.code).toBe("BAD_REQUEST");
    expect(beyond.message).toMatch(/beyond the log's head/);
  });
});
