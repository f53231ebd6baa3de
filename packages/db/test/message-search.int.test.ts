import type { ThreadShell } from "@skein/domain";
import { beforeEach, expect, it } from "vitest";
import type { EventStore } from "../src/index.ts";
import type { MessageThreadPageFilter } from "../src/event-store.ts";
import { idOf, metaSource } from "./support/execute-command.ts";
import { describeStores } from "./support/store-factory.ts";
import { ThreadDriver } from "./support/thread-driver.ts";

let store: EventStore;

/** Each thread's clock starts `day` days later, so the list's order is known. */
function thread(name: string, title: string, day = 0): ThreadDriver {
  const driver = new ThreadDriver(store, name, metaSource(name, Date.UTC(2025, 0, 1 + day)));
  driver.send({
    type: "CreateThread",
    data: {
      threadId: driver.threadId,
      projectId: idOf("project", "p"),
      title,
      defaultProvider: "codex",
    },
  });
  return driver;
}

async function search(filter: Partial<MessageThreadPageFilter> & { query: string }) {
  const { data } = await store.snapshot((q) =>
    q.messageThreadPage({ visibility: "active", limit: 10, ...filter }),
  );
  return data.map(({ row, excerpt }) => ({ title: (row.data as ThreadShell).title, excerpt }));
}

describeStores("the thread list's message search (issue 29)", (stores) => {
  beforeEach(async () => {
    store = await stores.fresh();
  });

  it("finds threads by a word of a finished message, newest activity first, with the text around it", async () => {
    const older = thread("older", "Older");
    older.completedRun(`${"x".repeat(300)} the Walrus sings at dawn`);
    const newer = thread("newer", "Newer", 1);
    newer.completedRun("ask the walrus");
    const other = thread("other", "Walrus in the title only");
    other.completedRun("nothing to see");
    const archived = thread("archived", "Archived");
    archived.completedRun("a walrus, archived");
    archived.send({ type: "ArchiveThread", data: { threadId: archived.threadId } });
    await Promise.all([older, newer, other, archived].map((d) => d.flush()));

    const found = await search({ query: "WALRUS" });
    expect(found.map((hit) => hit.title)).toEqual(["Newer", "Older"]);
    // The user's message and the scripted reply ("…: 0") both hold it; the newest one is shown,
    // cut to the text around the match.
    expect(found[0]?.excerpt).toContain("ask the walrus");
    expect(found[1]?.excerpt).toMatch(/^x{95} the Walrus sings at dawn/);
    expect(await search({ query: "walrus", visibility: "archived" })).toHaveLength(1);
    // Paged like the list: after the first row only the second.
    const { data: first } = await store.snapshot((q) =>
      q.messageThreadPage({ visibility: "active", query: "walrus", limit: 1 }),
    );
    const shell = first[0]?.row.data as ThreadShell;
    const rest = await search({
      query: "walrus",
      after: { activeAt: shell.lastActivityAt, id: shell.id },
    });
    expect(rest.map((hit) => hit.title)).toEqual(["Older"]);
  });

  it("LIKE decides: % and _ match themselves, the whole query must be there", async () => {
    const driver = thread("t", "T");
    driver.completedRun("coverage 100% done");
    await driver.flush();
    expect(await search({ query: "100%" })).toHaveLength(1);
    expect(await search({ query: "10_%" })).toEqual([]);
    expect(await search({ query: "coverage 100%!" })).toEqual([]);
  });
});
