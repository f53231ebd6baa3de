import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;

beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

async function say(threadId: string, text: string) {
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text });
  await t.orchestrator.waitForRun(runId);
}

/** Issue 29 item 5: the sidebar's search reads titles and what was said, one paged list. */
describe("thread.shells search over titles and messages", () => {
  it("finds a thread by a word of its messages, with the text around it, paged with title matches", async () => {
    const said = await t.newThread("Alpha");
    await say(said, "Please teach the quokka to count");
    const titled = await t.newThread("Quokka notes");
    const neither = await t.newThread("Beta");
    await say(neither, "nothing about it");

    const page = await t.client.thread.shells.query({ query: "QUOKKA" });
    expect(page.threads.map((s) => s.id).sort()).toEqual([said, titled].sort());
    // Only the thread found by a message carries an excerpt (the newest matching message: the
    // scripted reply echoes the request); the title match speaks for itself.
    expect(Object.keys(page.excerpts ?? {})).toEqual([said]);
    expect(page.excerpts?.[said]).toContain("Please teach the quokka to count");

    // One row a page: each thread once, in the list's order, then the end.
    const first = await t.client.thread.shells.query({ query: "quokka", limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    const second = await t.client.thread.shells.query({
      query: "quokka",
      limit: 1,
      cursor: first.nextCursor!,
    });
    expect([...first.threads, ...second.threads].map((s) => s.id)).toEqual(
      page.threads.map((s) => s.id),
    );
    expect(second.nextCursor).toBeNull();

    // Under three characters the trigram index cannot narrow: titles only.
    const short = await t.client.thread.shells.query({ query: "qu" });
    expect(short.threads.map((s) => s.id)).toEqual([titled]);
    expect(short.excerpts).toEqual({});
    // Without a query there is nothing to explain.
    expect((await t.client.thread.shells.query({})).excerpts).toBeUndefined();
  });

  it("reads the same as of a past sequence (time travel) as at the head", async () => {
    const said = await t.newThread("Alpha");
    await say(said, "the quokka again");
    const head = await t.client.thread.shells.query({ query: "quokka" });
    const past = await t.client.thread.shells.query({
      query: "quokka",
      atSequence: head.snapshotSequence,
    });
    expect(past.threads.map((s) => s.id)).toEqual([said]);
    expect(past.excerpts).toEqual(head.excerpts);
  });
});
