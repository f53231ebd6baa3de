import { describe, expect, it } from "vitest";
import {
  fileContent,
  hashTree,
  userRepoState,
  writeFiles,
  repoWithStore,
} from "./support/test-workspace.ts";

describe("tree snapshots and three-way merges (issue 19)", () => {
  it("merges in the object database only: conflicts listed workspace-relative, nothing touched until restoreTree", async () => {
    const { repo, workspace, store } = await repoWithStore(
      "merge",
      { "app/a.txt": "1\n2\n3\n4\n5\n", "app/b.txt": "b\n", "other/c.txt": "c\n" },
      "app",
    );
    const base = await store.snapshotTree(null);
    // Snapshots record nothing and are stable: the same workspace gives the same tree.
    expect(await store.snapshotTree(null)).toBe(base);

    writeFiles(repo, { "app/a.txt": "ONE\n2\n3\n4\n5\n", "app/new.txt": "n\n" });
    const theirs = await store.snapshotTree(base);
    writeFiles(repo, { "app/a.txt": "UNO\n2\n3\n4\n5\n", "app/b.txt": "B\n" });
    const clashing = await store.snapshotTree(base);
    await store.restoreTree(base);
    expect(fileContent(workspace, "a.txt")).toBe("1\n2\n3\n4\n5\n");

    writeFiles(repo, { "app/a.txt": "1\n2\n3\n4\nFIVE\n" });
    const ours = await store.snapshotTree(base);
    const userBefore = userRepoState(repo);
    const filesBefore = hashTree(repo);
    const clean = await store.mergeTrees({ base, ours, theirs });
    expect(clean.conflicts).toEqual([]);
    const conflict = await store.mergeTrees({ base, ours: theirs, theirs: clashing });
    expect(conflict.conflicts).toEqual(["a.txt"]);
    expect(hashTree(repo)).toEqual(filesBefore);
    expect(userRepoState(repo)).toEqual(userBefore);

    const written = await store.restoreTree(clean.tree);
    expect(written.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added new.txt",
      "modified a.txt",
    ]);
    expect(fileContent(workspace, "a.txt")).toBe("ONE\n2\n3\n4\nFIVE\n");
    expect(fileContent(workspace, "new.txt")).toBe("n\n");
    expect(fileContent(repo, "other/c.txt")).toBe("c\n");
    // Written as uncommitted changes: the user's index, HEAD and branches never moved.
    const { status: _status, ...userAfter } = userRepoState(repo);
    const { status: _before, ...userKept } = userBefore;
    expect(userAfter).toEqual(userKept);
  });
});
