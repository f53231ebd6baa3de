import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RequestError } from "@agentclientprotocol/sdk";
import {
  answerFileRequest,
  readWorkspaceFile,
  WorkspaceFsError,
  writeWorkspaceFile,
} from "./workspace-fs.ts";

let root: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skein-acp-fs-"));
  workspace = join(root, "ws");
  outside = join(root, "outside");
  await mkdir(workspace);
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "SECRET");
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("agent file requests, answered inside the thread's folder only", () => {
  it("reads and writes inside the workspace, creating folders, and reads line ranges", async () => {
    const path = join(workspace, "a", "b", "notes.txt");
    await writeWorkspaceFile(workspace, { path, content: "one\ntwo\nthree" });
    expect(await readFile(path, "utf8")).toBe("one\ntwo\nthree");
    expect(await readWorkspaceFile(workspace, { path })).toBe("one\ntwo\nthree");
    expect(await readWorkspaceFile(workspace, { path, line: 2, limit: 1 })).toBe("two");
  });

  it("refuses paths outside: ../, absolute elsewhere, relative, and through a symlink", async () => {
    const escapes = [
      join(workspace, "..", "outside", "secret.txt"),
      join(outside, "secret.txt"),
      "relative.txt",
    ];
    for (const path of escapes) {
      await expect(readWorkspaceFile(workspace, { path })).rejects.toBeInstanceOf(WorkspaceFsError);
      await expect(writeWorkspaceFile(workspace, { path, content: "x" })).rejects.toBeInstanceOf(
        WorkspaceFsError,
      );
    }
    await symlink(outside, join(workspace, "link"));
    const viaLink = join(workspace, "link", "secret.txt");
    await expect(readWorkspaceFile(workspace, { path: viaLink })).rejects.toThrow(/outside/);
    await expect(
      writeWorkspaceFile(workspace, { path: join(workspace, "link", "new.txt"), content: "x" }),
    ).rejects.toThrow(/outside/);
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("SECRET");
  });

  it("says which file could not be read", async () => {
    await expect(
      readWorkspaceFile(workspace, { path: join(workspace, "missing.txt") }),
    ).rejects.toThrow(/missing\.txt.*ENOENT/);
  });

  it("answers a missing file as ACP's Resource not found (-32002), the answer agents take as 'no such file'; a refusal keeps its words", async () => {
    const missing = join(workspace, "new.txt");
    const answer = answerFileRequest(missing, () =>
      readWorkspaceFile(workspace, { path: missing }),
    );
    await expect(answer).rejects.toBeInstanceOf(RequestError);
    await expect(answer).rejects.toMatchObject({
      code: -32002,
      message: `Resource not found: ${missing}`,
    });
    const outsidePath = join(outside, "secret.txt");
    const refused = answerFileRequest(outsidePath, () =>
      readWorkspaceFile(workspace, { path: outsidePath }),
    );
    await expect(refused).rejects.toBeInstanceOf(WorkspaceFsError);
    await expect(refused).rejects.toThrow(/outside/);
  });
});
