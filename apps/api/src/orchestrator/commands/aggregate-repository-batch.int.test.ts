import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteEventStore } from "@skein/db";
import type { ProjectId, ThreadId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { createIdGenerator } from "../../runtime/id-generator.ts";
import { AggregateRepository } from "./aggregate-repository.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-batch-"));
  const store = openSqliteEventStore({ dataDir: dir });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  const ids = createIdGenerator();
  const repo = new AggregateRepository(store, () => new Date("2026-12-01T00:00:00Z"), ids);
  const projectId = ids.next("project") as ProjectId;
  const threadId = ids.next("thread") as ThreadId;
  await repo.execute({
    type: "CreateProject",
    data: { projectId, title: "p", workspaceRoot: tmpdir() },
  });
  await repo.execute({
    type: "CreateThread",
    data: { threadId, projectId, title: "t", defaultProvider: "codex" },
  });
  return { store, repo, ids, threadId };
}

describe("AggregateRepository.executeBatch (one append per workflow decision)", () => {
  it("decides each command on the state the previous ones left and commits them in one transaction", async () => {
    const { store, repo, ids, threadId } = await setup();
    const head = await store.headSequence();
    const providerThreadId = ids.next("providerThread");
    const result = await repo.executeBatch([
      {
        type: "RecordProviderThread",
        data: { threadId, providerThreadId, provider: "codex", nativeThreadRef: "n1" },
      },
      // Refers to the provider thread the first command records.
      {
        type: "UpdateProviderThread",
        data: { threadId, providerThreadId, nativeThreadRef: "n2" },
      },
    ]);
    expect(result.events.map((e) => e.type)).toEqual([
      "ProviderThreadRecorded",
      "ProviderThreadUpdated",
    ]);
    const appended = await store.readAll(head);
    expect(appended).toHaveLength(2);
  });

  it("a refused command appends nothing of the batch and leaves no trace in the cached state", async () => {
    const { store, repo, ids, threadId } = await setup();
    const head = await store.headSequence();
    const providerThreadId = ids.next("providerThread");
    await expect(
      repo.executeBatch([
        {
          type: "RecordProviderThread",
          data: { threadId, providerThreadId, provider: "codex", nativeThreadRef: "n1" },
        },
        { type: "ArchiveThread", data: { threadId } },
        { type: "ArchiveThread", data: { threadId } },
      ]),
    ).rejects.toThrow();
    expect(await store.headSequence()).toBe(head);
    const state = await repo.thread(threadId);
    expect(state.providerThreads.size).toBe(0);
    expect(state.thread?.archivedAt ?? null).toBeNull();
  });
});
