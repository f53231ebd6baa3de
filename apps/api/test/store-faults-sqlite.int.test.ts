import { openSync, rmSync, writeSync, closeSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

// Issue 35 (B1): the embedded store's data file deleted or damaged while the server runs. SQLite
// would keep writing into the unlinked file (or its cached pages): writes are refused instead,
// health turns red with the cause in words, and nothing is acknowledged that a restart loses.

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

async function health() {
  const res = await fetch(`${t.server.url}/healthz`);
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string } };
}

const createProject = (name: string) =>
  t.client.project.create.mutate({
    name,
    workspaceRoot: process.cwd(),
    // Skein's own checkout: its threads never get worktrees of it (issue 26).
    settings: { threadWorkspace: "local" },
  });

describe("issue 35: a SQLite data file that goes away or is damaged", () => {
  it("B1: deleted: the next write is refused in words, health is red, and nothing unreadable was acknowledged", async () => {
    await createProject("before");
    expect((await health()).status).toBe(200);
    const file = t.store.file;
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
    for (let i = 0; i < 5; i += 1) {
      const refused = await refusal(createProject(`after ${i}`));
      expect(refused).toMatchObject({ code: "SERVICE_UNAVAILABLE", httpStatus: 503 });
      expect(refused.message).toMatch(/data file .* was deleted while Skein was running/);
    }
    const red = await health();
    expect(red.status).toBe(503);
    expect(red.body).toEqual({ ok: false, error: expect.stringMatching(/was deleted/) });
  });

  it("B1: damaged (its header overwritten): writes are refused and health says the file is damaged", async () => {
    await createProject("before");
    const fd = openSync(t.store.file, "r+");
    writeSync(fd, Buffer.alloc(4_096, 0x41), 0, 4_096, 0);
    closeSync(fd);
    const refused = await refusal(createProject("after"));
    expect(refused).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(refused.message).toMatch(/is damaged/);
    const red = await health();
    expect(red.status).toBe(503);
    expect(red.body.error).toMatch(/data file .* is damaged/);
  });
});
