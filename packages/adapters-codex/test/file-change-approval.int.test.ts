import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { applyPatchReply, responsesTextReply } from "@skein/fake-models";
import { describe, expect, test } from "vitest";
import { AdapterHarness, collect, completion, ofType } from "./support/adapter-harness.ts";

/**
 * B16 (issue 29): Codex's `item/fileChange/requestApproval` names only its item; the adapter
 * gives the approval that item's files and diffs, in the shape Claude's planned changes have,
 * so a person sees what they are asked to allow before anything is written.
 */
describe("Codex file-change approvals carry their diff (real binary)", () => {
  test("B16: the approval of an apply_patch lists each file with its diff before it is written; accepted, it is", async () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: notes.txt",
      "+alpha",
      "+beta",
      "*** Update File: existing.txt",
      "@@",
      "-old line",
      "+new line",
      "*** End Patch",
      "",
    ].join("\n");
    const h = await AdapterHarness.forTest([
      applyPatchReply(patch, "call_patch"),
      responsesTextReply("ok"),
    ]);
    const workdir = h.workdir;
    writeFileSync(path.join(workdir, "existing.txt"), "old line\n");
    const session = await h.openSession();
    const settings = h.settings({ runtimeMode: "approval-required" });
    const { nativeThreadRef } = await session.startThread(settings);

    let writtenWhenAsked: boolean | null = null;
    const events = await collect(
      session.startTurn(nativeThreadRef, { text: "write the notes" }, { settings }),
      {
        session,
        answer: () => {
          writtenWhenAsked = existsSync(path.join(workdir, "notes.txt"));
          return { decision: "accept" };
        },
      },
    );

    const opened = ofType(events, "request.opened");
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ kind: "file-change", itemRef: "call_patch" });
    const changes = opened[0]?.changes ?? [];
    const byPath = new Map(changes.map((c) => [c.path, c]));
    expect([...byPath.keys()].sort()).toEqual([
      path.join(workdir, "existing.txt"),
      path.join(workdir, "notes.txt"),
    ]);
    expect(byPath.get(path.join(workdir, "notes.txt"))).toEqual({
      path: path.join(workdir, "notes.txt"),
      kind: "add",
      diff: "+alpha\n+beta",
      additions: 2,
      deletions: 0,
    });
    const update = byPath.get(path.join(workdir, "existing.txt"));
    expect(update).toMatchObject({ kind: "update", additions: 1, deletions: 1 });
    expect(update?.diff).toMatch(/^@@/);
    expect(update?.diff).toContain("-old line\n+new line");

    // The item (the tool card) shows the same: the new file's lines as added ones.
    const item = ofType(events, "item.completed").find((e) => e.kind === "file_change");
    expect(item?.itemRef).toBe("call_patch");
    expect(item?.fields.changes).toContainEqual(byPath.get(path.join(workdir, "notes.txt")));

    expect(writtenWhenAsked).toBe(false);
    expect(completion(events).status).toBe("completed");
    expect(readFileSync(path.join(workdir, "notes.txt"), "utf8")).toBe("alpha\nbeta\n");
    expect(readFileSync(path.join(workdir, "existing.txt"), "utf8")).toBe("new line\n");
  });
});
