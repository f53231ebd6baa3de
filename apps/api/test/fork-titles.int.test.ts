import type { ThreadId } from "@skein/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitWorkspace } from "./support/git-workspace.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;
let projectId: string;
let main: ThreadId;

/** A run on `threadId` through the typed client, finished. */
async function answered(threadId: ThreadId, text: string): Promise<void> {
  t.codex.enqueue([{ type: "text", text: `re: ${text}` }]);
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text });
  await t.orchestrator.waitForRun(runId);
}

const titleOf = async (threadId: ThreadId) =>
  (await t.client.thread.detail.query({ threadId })).thread.title;

beforeAll(async () => {
  t = await startScriptedServer();
  ({ projectId } = await t.client.project.create.mutate({
    name: "titles",
    workspaceRoot: createGitWorkspace({ "a.txt": "a\n" }),
  }));
  ({ threadId: main } = await t.client.thread.create.mutate({
    projectId: projectId as never,
    title: "Main",
    provider: "codex",
  }));
  await answered(main, "first");
});
afterAll(async () => {
  await t.close();
});

describe("B16: fork titles come from the domain, for every client", () => {
  it("B16: untitled forks made through the typed client say where they came from and are numbered apart; a given title is kept", async () => {
    const one = await t.client.thread.fork.mutate({ threadId: main });
    const two = await t.client.thread.fork.mutate({ threadId: main });
    const named = await t.client.thread.fork.mutate({ threadId: main, title: "Try the cache" });
    expect(await titleOf(one.threadId)).toBe("fork of Main at run 1");
    expect(await titleOf(two.threadId)).toBe("fork of Main at run 1 (2)");
    expect(await titleOf(named.threadId)).toBe("Try the cache");
  });

  it("B16: a fan-out's forks count on from the forks already made, and a second fan-out from there", async () => {
    const fan = () =>
      t.client.thread.fanOut.mutate({
        threadId: main,
        text: "try it",
        isolated: true,
        targets: [{ provider: "codex" }, { provider: "codex" }],
      });
    t.codex.enqueue([{ type: "text", text: "a" }], [{ type: "text", text: "b" }]);
    const first = await fan();
    t.codex.enqueue([{ type: "text", text: "c" }], [{ type: "text", text: "d" }]);
    const second = await fan();
    const titles = await Promise.all(
      [...first.forks, ...second.forks].map((fork) => titleOf(fork.threadId)),
    );
    // Two forks at run 1 exist from the test above: the fan-outs number theirs 3 to 6.
    expect(titles).toEqual([3, 4, 5, 6].map((n) => `fork of Main at run 1 (${n})`));
  });

  it("B16: a fork's number is checked free when given: a thread titled as the next fork since is stepped past", async () => {
    const { threadId: second } = await t.client.thread.create.mutate({
      projectId: projectId as never,
      title: "Second",
      provider: "codex",
    });
    await answered(second, "one");
    const forkTitles = async (n: number) => {
      const titles: string[] = [];
      for (let i = 0; i < n; i += 1) {
        titles.push(
          await titleOf((await t.client.thread.fork.mutate({ threadId: second })).threadId),
        );
      }
      return titles;
    };
    expect(await forkTitles(2)).toEqual(["fork of Second at run 1", "fork of Second at run 1 (2)"]);
    await t.client.thread.create.mutate({
      projectId: projectId as never,
      title: "fork of Second at run 1 (3)",
      provider: "codex",
    });
    expect(await forkTitles(2)).toEqual([
      "fork of Second at run 1 (4)",
      "fork of Second at run 1 (5)",
    ]);
  });

  it("B16: forks of a thread whose title is cut to fit are numbered apart too", async () => {
    const long = `A long title ${"x".repeat(180)}`;
    const { threadId } = await t.client.thread.create.mutate({
      projectId: projectId as never,
      title: long,
      provider: "codex",
    });
    await answered(threadId, "one");
    const titles: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      titles.push(await titleOf((await t.client.thread.fork.mutate({ threadId })).threadId));
    }
    expect(new Set(titles).size).toBe(3);
    expect(titles.map((title) => title.match(/ \((\d+)\)$/)?.[1] ?? "1")).toEqual(["1", "2", "3"]);
    expect(titles.every((title) => title.startsWith("fork of A long title x"))).toBe(true);
  });

  it("B16: one run numbering: a fork's own runs count on from the runs it inherited, and so do its forks' titles", async () => {
    const fork = await t.client.thread.fork.mutate({ threadId: main, title: "Branch" });
    await answered(fork.threadId, "on the fork");
    const detail = await t.client.thread.detail.query({ threadId: fork.threadId });
    expect(detail.thread.inheritance?.runOffset).toBe(1);
    const nested = await t.client.thread.fork.mutate({ threadId: fork.threadId });
    // The fork's first own run is run 2 as a person counts (run 1 was inherited).
    expect(await titleOf(nested.threadId)).toBe("fork of Branch at run 2");
    const inner = await t.client.thread.detail.query({ threadId: nested.threadId });
    expect(inner.thread.inheritance?.runOffset).toBe(2);
  });

  it("B16: one run numbering: a fork's handoff text numbers its own runs as the UI does", async () => {
    const fork = await t.client.thread.fork.mutate({ threadId: main, title: "Numbered" });
    await answered(fork.threadId, "said on the fork");
    // Another provider takes over: it gets the whole conversation as a handoff text.
    t.claude.enqueue([{ type: "text", text: "taken over" }]);
    const { runId } = await t.client.thread.sendMessage.mutate({
      threadId: fork.threadId,
      text: "go on",
      provider: "claude",
    });
    await t.orchestrator.waitForRun(runId);
    const { handoffs } = await t.client.thread.graph.query({ threadId: fork.threadId });
    const text = handoffs.map((h) => h.summaryText).join("\n");
    // Main's run 1 was inherited; the fork's own first run is run 2, as its run header says.
    expect(text).toContain("run 1 of thread 1; run 2 of thread 2");
    expect(text).toContain("[thread 2 run 2 · user] said on the fork");
    expect(text).not.toContain("thread 2 run 1");
  });
});
