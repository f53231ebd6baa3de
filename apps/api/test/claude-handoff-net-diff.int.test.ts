import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicTextReply, anthropicWriteReply } from "@skein/fake-models";
import type { ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import { lastContextText } from "./support/provider-summary.ts";

/** The handoff's "state of the code" section, up to the next section. */
function stateSection(text: string): string {
  const start = text.indexOf("## State of the code");
  if (start < 0) throw new Error(`no state of the code in:\n${text}`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/**
 * Issue 25 item 2: the state of the work a handoff carries is git's net diff from the thread's
 * start to its source point (checkpoints snapshot the working tree, so what nobody committed is
 * in it), not each run's latest edit. Real Claude Agent SDK writing files in a real git
 * repository, the fake Anthropic server scripting its edits; the switch goes to a scripted Codex.
 */
describe("a handoff's state of the code is the net git diff (real Claude, real git)", () => {
  const harness = useClaudeSkeinHarness();

  it("a file written three times shows its net change only; an uncommitted edit of the person appears", async () => {
    const x = await harness({ codex: "scripted" });
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: x.workspaceRoot, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("config", "user.email", "t@example.com");
    git("config", "user.name", "t");
    writeFileSync(join(x.workspaceRoot, "config.json"), '{"queue":"v0"}\n');
    writeFileSync(join(x.workspaceRoot, "NOTES.md"), "notes\n");
    git("add", ".");
    git("commit", "-q", "-m", "start");

    const threadId: ThreadId = await x.createThread({ runtimeMode: "full-access" });
    // B14: a thread of a git project works in its own worktree.
    const cwd = (await x.thread(threadId)).thread?.worktreePath ?? x.workspaceRoot;
    const config = join(cwd, "config.json");
    for (const v of ["v1", "v2", "v3"]) {
      if (v === "v3") writeFileSync(join(cwd, "NOTES.md"), "notes\nPERSON-EDIT\n");
      x.anthropic.enqueue(
        anthropicWriteReply(config, `{"queue":"${v}"}\n`),
        anthropicTextReply(`queue is ${v}`),
      );
      await x.send(threadId, `Set the queue to ${v}.`);
    }
    expect(readFileSync(config, "utf8")).toBe('{"queue":"v3"}\n');
    // Nothing was committed: the work is all uncommitted changes.
    expect(execFileSync("git", ["status", "--porcelain"], { cwd, encoding: "utf8" })).toContain(
      "config.json",
    );

    const draft = await x.orchestrator.draftHandoff({ threadId, provider: "codex" });
    if (!draft.needed) throw new Error("a switch to Codex carries a handoff");
    const state = stateSection(draft.text);
    expect(state).toContain("net diff from the thread's start to the end of run 3");
    expect(state).toContain('-{"queue":"v0"}');
    expect(state).toContain('+{"queue":"v3"}');
    // Its intermediate states are history, not the state of the work.
    expect(state).not.toContain('"v1"');
    expect(state).not.toContain('"v2"');
    expect(state).toContain("+PERSON-EDIT");
    // The runs' own edits are cited; the person's edit belongs to no run.
    expect(state).toContain("- config.json +1 -1 (3 changes, last in run 3)");
    expect(state).toContain("- NOTES.md +1 -0 (changed outside the covered runs)");
    expect(draft.payload.brief?.netDiff).toEqual({
      from: null,
      to: { threadId, ordinal: 3 },
    });
    const files = draft.payload.brief?.files ?? [];
    expect(files.map((f) => f.fileName).sort()).toEqual(["NOTES.md", "config.json"]);
    expect(files.every((f) => f.net === true)).toBe(true);

    // The run itself sends the same net state to Codex.
    x.scriptedCodex!.enqueue([{ type: "text", text: "continuing" }]);
    await x.send(threadId, "Continue on Codex.", { provider: "codex" });
    const sent = lastContextText(x.scriptedCodex!.calls);
    expect(sent).toBeDefined();
    expect(stateSection(sent!)).toBe(state);
  });

  it("a bring-back's state of the code is the fork's net diff from its fork point, not the source's own later work", async () => {
    const x = await harness({ codex: "scripted" });
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", args, { cwd, encoding: "utf8" });
    git(x.workspaceRoot, "init", "-q", "-b", "main");
    git(x.workspaceRoot, "config", "user.email", "t@example.com");
    git(x.workspaceRoot, "config", "user.name", "t");
    writeFileSync(join(x.workspaceRoot, "config.json"), '{"queue":"v0"}\n');
    git(x.workspaceRoot, "add", ".");
    git(x.workspaceRoot, "commit", "-q", "-m", "start");

    const threadId: ThreadId = await x.createThread({ runtimeMode: "full-access" });
    const main = (await x.thread(threadId)).thread?.worktreePath ?? x.workspaceRoot;
    x.anthropic.enqueue(
      anthropicWriteReply(join(main, "config.json"), '{"queue":"v1"}\n'),
      anthropicTextReply("queue is v1"),
    );
    await x.send(threadId, "Set the queue to v1.");
    const fork = (await x.orchestrator.forkThread({ threadId })).threadId as ThreadId;
    const forkCwd = (await x.thread(fork)).thread?.worktreePath;
    expect(forkCwd).toBeTruthy();
    expect(forkCwd).not.toBe(main);
    for (const v of ["v2", "v3"]) {
      x.anthropic.enqueue(
        anthropicWriteReply(join(forkCwd!, "config.json"), `{"queue":"${v}"}\n`),
        anthropicTextReply(`queue is ${v}`),
      );
      await x.send(fork, `Set the queue to ${v}.`);
    }
    // The source goes on meanwhile; that is not the fork's work.
    x.anthropic.enqueue(
      anthropicWriteReply(join(main, "MAIN-ONLY.md"), "main only\n"),
      anthropicTextReply("noted"),
    );
    await x.send(threadId, "Write MAIN-ONLY.md.");

    // Back into the source on Claude, whose thread saw run 1: a delta of the fork's runs.
    const draft = await x.orchestrator.draftHandoff({
      threadId,
      provider: "claude",
      bringBackFrom: fork,
    });
    if (!draft.needed) throw new Error("a bring-back carries the fork's runs");
    expect(draft.strategy).toBe("delta_since_target_last_seen");
    const state = stateSection(draft.text);
    // From the fork point (the source's run 1) to the fork's last run: v1 → v3, nothing else.
    expect(state).toMatch(/net diff from the end of run 1 to the end of .*run \d/);
    expect(state).toContain('-{"queue":"v1"}');
    expect(state).toContain('+{"queue":"v3"}');
    expect(state).not.toContain('"v2"');
    expect(state).not.toContain("MAIN-ONLY");
    expect(draft.payload.brief?.files.map((f) => f.fileName)).toEqual(["config.json"]);
  });
});
