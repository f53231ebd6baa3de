import { mkdir, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { mkdtemp } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

async function put(relative: string, text = "x") {
  const file = path.join(t.workspaceDir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** Issue 29 item 4: the composer's @-mentions search the thread's workspace, and only it. */
describe("workspace.searchFiles (@-mentions)", () => {
  it("finds files by name and path, best first, as workspace-relative paths", async () => {
    await put("src/app.ts");
    await put("src/deep/app-helpers.ts");
    await put("docs/about-app.md");
    await put("README.md");
    const threadId = await t.newThread();
    const { paths, truncated } = await t.client.workspace.searchFiles.query({
      threadId,
      query: "app",
    });
    // Name starts with the query, then name holds it; nothing that does not match.
    expect(paths).toEqual(["src/app.ts", "src/deep/app-helpers.ts", "docs/about-app.md"]);
    expect(truncated).toBe(false);
    const byPath = await t.client.workspace.searchFiles.query({ threadId, query: "src/deep" });
    expect(byPath.paths).toEqual(["src/deep/app-helpers.ts"]);
  });

  it("skips .git and node_modules, and does not follow a symlink out of the workspace", async () => {
    await put("lib/needle.ts");
    await put("node_modules/pkg/needle.js");
    await put(".git/needle-object");
    const outside = await mkdtemp(path.join(tmpdir(), "skein-outside-"));
    await writeFile(path.join(outside, "needle-secret.txt"), "secret");
    await symlink(outside, path.join(t.workspaceDir, "linked"));
    await symlink(
      path.join(outside, "needle-secret.txt"),
      path.join(t.workspaceDir, "needle-link"),
    );
    const threadId = await t.newThread();
    const { paths } = await t.client.workspace.searchFiles.query({ threadId, query: "needle" });
    expect(paths).toEqual(["lib/needle.ts"]);
  });

  it("is bounded: at most `limit` answers, and says it was cut short", async () => {
    for (let i = 0; i < 30; i++) await put(`many/file-${String(i).padStart(2, "0")}.txt`);
    const threadId = await t.newThread();
    const { paths, truncated } = await t.client.workspace.searchFiles.query({
      threadId,
      query: "file-",
      limit: 5,
    });
    expect(paths).toHaveLength(5);
    expect(truncated).toBe(true);
    // The default answer is capped too.
    const all = await t.client.workspace.searchFiles.query({ threadId, query: "file-" });
    expect(all.paths).toHaveLength(20);
    expect(all.truncated).toBe(true);
  });

  it("refuses a query naming a place outside, an over-large limit and an unknown thread, in words", async () => {
    const threadId = await t.newThread();
    for (const query of ["../etc", "/etc/passwd", "src/../../x"]) {
      expect(
        await refusal(t.client.workspace.searchFiles.query({ threadId, query })),
      ).toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringMatching(/inside the thread's workspace/),
      });
    }
    expect(
      await refusal(t.client.workspace.searchFiles.query({ threadId, query: "a", limit: 10_000 })),
    ).toMatchObject({ code: "BAD_REQUEST" });
    expect(
      await refusal(
        t.client.workspace.searchFiles.query({ threadId: "thr_missing" as never, query: "a" }),
      ),
    ).toMatchObject({ code: "NOT_FOUND" });
  });
});
