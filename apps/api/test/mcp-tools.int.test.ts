import { rmSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ProjectId, StoredEvent, ThreadId } from "@skein/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { createGitWorkspace, git } from "./support/git-workspace.ts";
import { callTool, connectMcp, toolRefusal } from "./support/mcp-client.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { until } from "./support/until.ts";

// Skein's MCP server (B19) through the official MCP SDK client over Streamable HTTP, on the real
// orchestrator and store with scripted providers: every tool, exactly-once under replay, bad
// input in the API's own words with nothing appended.

const TOKEN = "mcp-token-0123456789abcdef";
const AGENT = "test-agent";
let t: ScriptedTestServer;
let mcp: Client;
let projectId: ProjectId;
let workspace: string;

beforeAll(async () => {
  t = await startScriptedServer({ token: TOKEN });
  workspace = createGitWorkspace({ "README.md": "hello\n" });
  ({ projectId } = await t.client.project.create.mutate({ name: "mcp", workspaceRoot: workspace }));
  mcp = await connectMcp(t.server.url, { token: TOKEN, name: AGENT });
});
afterAll(async () => {
  await mcp?.close();
  await t?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const say = (text: string) => [{ type: "text" as const, text }];
const write = (path: string, content: string) => ({
  type: "file_change" as const,
  path,
  diff: "",
  content,
});

type Created = { threadId: ThreadId; sequence: number };
type RunAnswer = { runId: string; sequence: number };
type Outcome = {
  status: string;
  done: boolean;
  reply: string | null;
  files: Array<{ path: string; additions: number }> | null;
};

const head = () => t.store.headSequence();

/** The event that started a thread, as the log holds it. */
async function startEvent(threadId: ThreadId): Promise<StoredEvent> {
  const event = (await t.store.readStream(`thread-${threadId}`)).find(
    (e) => e.type === "ThreadCreated" || e.type === "ThreadForked",
  );
  if (!event) throw new Error(`no start event for ${threadId}`);
  return event;
}

async function sendAndWait(threadId: ThreadId, text: string, provider?: string) {
  const { runId } = await callTool<RunAnswer>(mcp, "skein_send_message", {
    threadId,
    text,
    ...(provider ? { provider } : {}),
  });
  const outcome = await callTool<Outcome>(mcp, "skein_wait_run", {
    threadId,
    runId,
    timeoutMs: 30_000,
  });
  return { runId, outcome };
}

describe("B19: Skein's MCP server", () => {
  it("B19: tools/list names exactly the tools of the issue, each with an object input schema", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "skein_list_projects",
        "skein_list_threads",
        "skein_read_thread",
        "skein_create_thread",
        "skein_send_message",
        "skein_wait_run",
        "skein_fork_thread",
        "skein_fan_out",
        "skein_compare_forks",
        "skein_bring_back",
        "skein_review_diff",
        "skein_pending_requests",
        "skein_respond_request",
      ].sort(),
    );
    const create = tools.find((tool) => tool.name === "skein_create_thread")!;
    expect(create.inputSchema).toMatchObject({
      type: "object",
      required: ["projectId"],
      properties: {
        // The built-in providers by name, or a configured ACP agent's id (B18).
        provider: {
          anyOf: [
            { enum: ["codex", "claude", "gemini"] },
            { type: "string", pattern: "^[a-z][a-z0-9-]{1,31}$" },
          ],
        },
        commandId: { type: "string" },
      },
    });
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
  });

  it("B19: create, send, wait, read, review, fork, compare, bring back: the agent's threads say it started them", async () => {
    const projects = await callTool<{ projects: Array<{ projectId: string }> }>(
      mcp,
      "skein_list_projects",
    );
    expect(projects.projects.map((p) => p.projectId)).toContain(projectId);

    const { threadId } = await callTool<Created>(mcp, "skein_create_thread", {
      projectId,
      provider: "codex",
      title: "From an agent",
    });
    expect((await startEvent(threadId)).data).toMatchObject({
      thread: { createdBy: "agent", agentName: AGENT },
    });

    t.codex.enqueue([write("notes.txt", "one\ntwo\n"), ...say("wrote the notes")]);
    const first = await sendAndWait(threadId, "write notes");
    expect(first.outcome).toMatchObject({
      status: "completed",
      done: true,
      reply: "wrote the notes",
    });
    expect(first.outcome.files).toEqual([
      { path: "notes.txt", status: "added", additions: 2, deletions: 0 },
    ]);

    const listed = await callTool<{ threads: Array<Record<string, unknown>> }>(
      mcp,
      "skein_list_threads",
      { projectId, query: "from an agent" },
    );
    expect(listed.threads).toEqual([
      expect.objectContaining({ threadId, createdBy: "agent", agentName: AGENT, runCount: 1 }),
    ]);

    const read = await callTool<{ items: Array<Record<string, unknown>>; runs: unknown[] }>(
      mcp,
      "skein_read_thread",
      { threadId },
    );
    expect(read.runs).toEqual([
      expect.objectContaining({ runId: first.runId, status: "completed" }),
    ]);
    const texts = read.items.map((i) => i.text).filter((text) => text !== undefined);
    expect(texts).toEqual(["write notes", "wrote the notes"]);
    expect(read.items.every((i) => !("rawFrames" in i) && !("nodeId" in i))).toBe(true);

    const diff = await callTool<{ files: Array<{ path: string; patch: string }> }>(
      mcp,
      "skein_review_diff",
      { threadId, runId: first.runId },
    );
    expect(diff.files.map((f) => f.path)).toEqual(["notes.txt"]);
    expect(diff.files[0]!.patch).toContain("+two");

    const fork = await callTool<Created>(mcp, "skein_fork_thread", { threadId });
    expect((await startEvent(fork.threadId)).data).toMatchObject({
      thread: {
        createdBy: "agent",
        agentName: AGENT,
        lineage: { parentThreadId: threadId, relationshipToParent: "fork" },
      },
    });
    t.claude.enqueue([write("notes.txt", "one\ntwo\nthree\n"), ...say("added three")]);
    const onFork = await sendAndWait(fork.threadId, "add a line", "claude");
    expect(onFork.outcome).toMatchObject({ status: "completed", reply: "added three" });

    const compared = await callTool<{ forks: Array<Record<string, unknown>> }>(
      mcp,
      "skein_compare_forks",
      { threadIds: [fork.threadId] },
    );
    expect(compared.forks).toEqual([expect.objectContaining({ threadId: fork.threadId })]);

    t.codex.enqueue(say("brought back"));
    const back = await callTool<RunAnswer>(mcp, "skein_bring_back", {
      threadId,
      forkThreadId: fork.threadId,
      text: "take the fork's line",
      code: "squash",
    });
    const backOutcome = await callTool<Outcome>(mcp, "skein_wait_run", {
      threadId,
      runId: back.runId,
    });
    expect(backOutcome).toMatchObject({ status: "completed", reply: "brought back" });
    const transfers = await t.client.thread.detail.query({ threadId });
    expect(transfers.transfers.map((x) => x.type)).toContain("merge_back");

    const resource = await mcp.readResource({ uri: `skein://threads/${threadId}/diff` });
    const patch = resource.contents[0] as { text: string };
    expect(patch.text).toContain("+three");
    const threadResource = await mcp.readResource({ uri: `skein://threads/${threadId}` });
    expect(JSON.parse((threadResource.contents[0] as { text: string }).text)).toMatchObject({
      thread: { threadId, createdBy: "agent" },
    });
  });

  it("B19/B9: a fan-out by the agent makes forks started by it, one per target", async () => {
    const { threadId } = await callTool<Created>(mcp, "skein_create_thread", { projectId });
    t.codex.enqueue(say("ready"));
    await sendAndWait(threadId, "get ready");
    t.codex.enqueue(say("codex take"));
    t.claude.enqueue(say("claude take"));
    const { forks } = await callTool<{ forks: Array<{ threadId: ThreadId; provider: string }> }>(
      mcp,
      "skein_fan_out",
      {
        threadId,
        text: "try it",
        targets: [{ provider: "codex" }, { provider: "claude" }],
        isolated: true,
        commandId: "cmd_mcp_fanout",
      },
    );
    expect(forks.map((f) => f.provider)).toEqual(["codex", "claude"]);
    const replies: Array<string | null> = [];
    for (const f of forks) {
      expect((await startEvent(f.threadId)).data).toMatchObject({
        thread: { createdBy: "agent", agentName: AGENT },
      });
      const { runs } = await callTool<{ runs: Array<{ runId: string }> }>(
        mcp,
        "skein_read_thread",
        {
          threadId: f.threadId,
        },
      );
      const runId = runs.at(-1)!.runId;
      replies.push(
        (await callTool<Outcome>(mcp, "skein_wait_run", { threadId: f.threadId, runId })).reply,
      );
    }
    expect(replies).toEqual(["codex take", "claude take"]);
  });

  it("E15: the agent sees a run's pending approval and answers it", async () => {
    const { threadId } = await callTool<Created>(mcp, "skein_create_thread", {
      projectId,
      runtimeMode: "approval-required",
    });
    t.codex.enqueue([
      { type: "command", command: "ls", output: "README.md", approval: true },
      ...say("listed"),
    ]);
    const { runId } = await callTool<RunAnswer>(mcp, "skein_send_message", {
      threadId,
      text: "list files",
    });
    const waiting = await callTool<Outcome>(mcp, "skein_wait_run", {
      threadId,
      runId,
      timeoutMs: 0,
    });
    expect(waiting.done).toBe(false);
    const { requests: pending } = await until(
      () =>
        callTool<{ requests: Array<{ id: string; kind: string; answerable: boolean }> }>(
          mcp,
          "skein_pending_requests",
          { threadId },
        ),
      (list) => list.requests.length > 0,
    );
    expect(pending).toEqual([expect.objectContaining({ kind: "command", answerable: true })]);
    await callTool(mcp, "skein_respond_request", {
      requestId: pending[0]!.id,
      decision: "accept",
      commandId: "cmd_mcp_accept",
    });
    const outcome = await callTool<Outcome>(mcp, "skein_wait_run", { threadId, runId });
    expect(outcome).toMatchObject({ status: "completed", reply: "listed" });
  });

  it("S4/B3: a command replayed under its commandId answers the first result and appends nothing", async () => {
    const args = { projectId, title: "Once", commandId: "cmd_mcp_create_once" };
    const first = await callTool<Created>(mcp, "skein_create_thread", args);
    const before = await head();
    const again = await callTool<Created>(mcp, "skein_create_thread", args);
    expect(again).toEqual(first);
    expect(await head()).toBe(before);

    t.codex.enqueue(say("only once"));
    const send = { threadId: first.threadId, text: "once", commandId: "cmd_mcp_send_once" };
    const sent = await callTool<RunAnswer>(mcp, "skein_send_message", send);
    await callTool(mcp, "skein_wait_run", { threadId: first.threadId, runId: sent.runId });
    const settled = await head();
    expect(await callTool<RunAnswer>(mcp, "skein_send_message", send)).toEqual(sent);
    expect(await head()).toBe(settled);
    const detail = await t.client.thread.detail.query({ threadId: first.threadId });
    expect(detail.runs).toHaveLength(1);

    // A fork (its own worktree in this git project) replayed: one fork, one worktree.
    const forkArgs = { threadId: first.threadId, commandId: "cmd_mcp_fork_once" };
    const fork = await callTool<Created>(mcp, "skein_fork_thread", forkArgs);
    const forked = await head();
    expect(await callTool<Created>(mcp, "skein_fork_thread", forkArgs)).toEqual(fork);
    expect(await head()).toBe(forked);
    const worktrees = git(workspace, "worktree", "list").trim().split("\n");
    expect(worktrees.filter((line) => line.includes(fork.threadId))).toHaveLength(1);

    // The same id for another payload is refused, naming the first, and changes nothing.
    const conflict = await toolRefusal(mcp, "skein_send_message", { ...send, text: "other" });
    expect(conflict).toMatch(/^CONFLICT: .*cmd_mcp_send_once/);
    expect(await head()).toBe(forked);
  });

  it("B4: bad input is a tool error in the API's own words, and nothing is appended", async () => {
    const { threadId } = await callTool<Created>(mcp, "skein_create_thread", { projectId });
    const before = await head();
    expect(await toolRefusal(mcp, "skein_wait_run", { threadId, runId: "run_missing" })).toBe(
      "NOT_FOUND: run run_missing not found",
    );
    // Each tool with bad arguments, and the procedure it calls with the same ones over HTTP.
    type Case = [string, Record<string, unknown>, (args: never) => Promise<unknown>];
    const cases: Case[] = [
      [
        "skein_create_thread",
        { projectId: "not-a-project", provider: "no-such-agent" },
        t.client.thread.create.mutate,
      ],
      ["skein_create_thread", { projectId: "prj_missing" }, t.client.thread.create.mutate],
      [
        "skein_send_message",
        { threadId: "thr_missing", text: "lone \ud800 surrogate" },
        t.client.thread.sendMessage.mutate,
      ],
      [
        "skein_fork_thread",
        { threadId: "thr_missing", commandId: "not-a-command-id" },
        t.client.thread.fork.mutate,
      ],
    ];
    for (const [tool, args, procedure] of cases) {
      const { code, message } = await refusal(procedure(args as never));
      expect(await toolRefusal(mcp, tool, args)).toBe(`${code}: ${message}`);
    }
    const waited = await toolRefusal(mcp, "skein_wait_run", {
      threadId: "thr_x",
      runId: "run_x",
      timeoutMs: 10_000_000,
    });
    expect(waited).toMatch(/^BAD_REQUEST: timeoutMs: /);
    expect(await head()).toBe(before);
  });

  it("B4: an agent whose name is not a name may read but starts nothing", async () => {
    const odd = await connectMcp(t.server.url, { token: TOKEN, name: "x".repeat(300) });
    try {
      const before = await head();
      await callTool(odd, "skein_list_threads", { projectId });
      expect(await toolRefusal(odd, "skein_create_thread", { projectId })).toBe(
        "BAD_REQUEST: agent name: must be at most 200 characters",
      );
      expect(await head()).toBe(before);
    } finally {
      await odd.close();
    }
  });
});
