import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { workspaceProblem } from "./workspace-check.ts";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skein-workspace-check-"));
});
afterEach(async () => {
  await chmod(join(root, "locked"), 0o755).catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

describe("the folder check at every run start (B1, B4), on the real filesystem", () => {
  it("B1: a folder Skein may read, write and enter has no problem", async () => {
    const folder = join(root, "project");
    await mkdir(folder);
    expect(await workspaceProblem(folder)).toBeNull();
  });

  it("B1: a folder that is gone, or whose parent is a file, is said not to exist", async () => {
    const missing = join(root, "gone");
    expect(await workspaceProblem(missing)).toContain(
      `The workspace folder ${missing} does not exist (it may have been moved or deleted)`,
    );
    await writeFile(join(root, "file"), "x");
    const underFile = join(root, "file", "project");
    expect(await workspaceProblem(underFile)).toContain(
      `The workspace folder ${underFile} does not exist`,
    );
  });

  it("B1: a file where the folder was is said to be no folder", async () => {
    const file = join(root, "project");
    await writeFile(file, "x");
    expect(await workspaceProblem(file)).toBe(
      `The workspace ${file} is not a folder. Put the project's folder back at that path, then send the message again.`,
    );
  });

  it("B4: a folder swapped for a symbolic link is refused, naming where it leads, even a link to nowhere", async () => {
    const other = join(root, "other");
    await mkdir(other);
    const swapped = join(root, "project");
    await symlink(other, swapped);
    const problem = await workspaceProblem(swapped);
    expect(problem).toContain(`${swapped} has been replaced by a symbolic link to ${other}`);
    const dangling = join(root, "dangling");
    await symlink(join(root, "nowhere"), dangling);
    expect(await workspaceProblem(dangling)).toContain(
      "replaced by a symbolic link to a folder that does not exist",
    );
  });

  // root may read and write anything, so only another user sees a folder it may not use.
  it.skipIf(process.getuid?.() === 0)(
    "B1: a folder Skein may not read and write is said so",
    async () => {
      const locked = join(root, "locked");
      await mkdir(locked);
      await chmod(locked, 0o500);
      expect(await workspaceProblem(locked)).toContain("is not readable and writable");
    },
  );
});
