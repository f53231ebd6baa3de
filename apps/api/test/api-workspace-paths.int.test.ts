import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

// Real server over HTTP, real folders: every refused path is BAD_REQUEST naming the path and the
// reason in words, and appends nothing.

let t: ScriptedTestServer;
let aFile: string;

beforeAll(async () => {
  t = await startScriptedServer();
  aFile = path.join(t.workspaceDir, "notes.txt");
  fs.writeFileSync(aFile, "not a folder\n");
  fs.mkdirSync(path.join(t.dataDir, "inner"), { recursive: true });
  fs.symlinkSync(t.dataDir, path.join(t.workspaceDir, "to-data"));
  fs.symlinkSync("/", path.join(t.workspaceDir, "to-root"));
});
afterAll(async () => {
  await t.close();
});

type Row = [name: string, workspaceRoot: () => string, reason: (root: string) => string];

const REFUSED: Row[] = [
  [
    "a folder that does not exist",
    () => path.join(t.workspaceDir, "missing"),
    (root) => `The folder ${root} does not exist. Create it or choose another folder.`,
  ],
  ["a file", () => aFile, (root) => `The path ${root} is a file, not a folder.`],
  ["/", () => "/", () => "The folder / is the whole filesystem."],
  [
    "a path with ..",
    () => `${t.workspaceDir}/../${path.basename(t.workspaceDir)}`,
    () => `is not normalized (it has "." or ".." parts`,
  ],
  [
    "the data dir itself",
    () => t.dataDir,
    (root) => `The folder ${root} is Skein's own data folder`,
  ],
  ["a path containing NUL", () => `${t.workspaceDir}\0/x`, () => "contains a NUL character"],
  [
    "a folder inside the data dir",
    () => path.join(t.dataDir, "inner"),
    (root) => `The folder ${root} is inside Skein's own data folder`,
  ],
  [
    "a symlink to the data dir",
    () => path.join(t.workspaceDir, "to-data"),
    (root) => `The folder ${root} is Skein's own data folder`,
  ],
  [
    "a symlink to /",
    () => path.join(t.workspaceDir, "to-root"),
    (root) => `The folder ${root} leads to /, the whole filesystem.`,
  ],
  [
    "a path below a file",
    () => path.join(aFile, "sub"),
    (root) => `The folder ${root} does not exist: part of that path is a file.`,
  ],
  ["a relative path", () => "code/app", () => "is not absolute"],
];

describe("B4: project.create validates the workspace folder", () => {
  it.each(REFUSED)("refuses %s with the reason, appending nothing", async (_name, root, reason) => {
    const workspaceRoot = root();
    const head = await t.store.headSequence();
    const before = (await t.client.project.list.query()).projects.length;
    const refused = await refusal(t.client.project.create.mutate({ name: "p", workspaceRoot }));
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.httpStatus).toBe(400);
    expect(refused.message).toContain(reason(workspaceRoot));
    expect(refused.issues?.[0]?.path).toBe("workspaceRoot");
    expect(await t.store.headSequence()).toBe(head);
    expect((await t.client.project.list.query()).projects.length).toBe(before);
  });

  it("accepts an existing, writable folder outside the data dir, as written", async () => {
    const workspaceRoot = fs.mkdtempSync(path.join(t.workspaceDir, "repo-"));
    const { projectId } = await t.client.project.create.mutate({ name: "ok", workspaceRoot });
    const { projects } = await t.client.project.list.query();
    expect(projects.find((p) => p.id === projectId)?.workspaceRoot).toBe(workspaceRoot);
  });
});
