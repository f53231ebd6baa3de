import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listClaudeSessions, readClaudeSession } from "./native-sessions.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CWD = "/work/my-app";
const FOLDER = "-work-my-app";
const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const C = "33333333-3333-4333-8333-333333333333";

/** A transcript as Claude Code writes one: a prompt, an answer, bookkeeping lines. */
function transcript(cwd: string, prompt: string, extra: Record<string, unknown>[] = []): string {
  const lines = [
    { type: "queue-operation", content: prompt },
    {
      type: "user",
      uuid: "u1",
      parentUuid: null,
      cwd,
      timestamp: "2026-01-02T03:04:05.000Z",
      message: { role: "user", content: prompt },
    },
    {
      type: "assistant",
      uuid: "a1",
      parentUuid: "u1",
      cwd,
      message: { role: "assistant", content: [{ type: "text", text: `re: ${prompt}` }] },
    },
    ...extra,
  ];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

function configDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "skein-claude-sessions-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, "projects", path);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, text);
  }
  return dir;
}

describe("Claude sessions of a folder (B6)", () => {
  it("B6: lists the folder's transcripts with a prompt, by their recorded cwd; a set title wins", async () => {
    const dir = configDir({
      [`${FOLDER}/${A}.jsonl`]: transcript(CWD, "fix the parser\nplease"),
      [`${FOLDER}/${B}.jsonl`]: transcript(CWD, "named", [
        { type: "custom-title", customTitle: "My title", sessionId: B },
      ]),
      // Same folder name, another cwd ("/work/my.app" munges the same way): not this folder.
      [`${FOLDER}/${C}.jsonl`]: transcript("/work/my.app", "elsewhere"),
      // Not a session file, and a session with no prompt yet.
      [`${FOLDER}/notes.jsonl`]: transcript(CWD, "not a session"),
      [`${FOLDER}/44444444-4444-4444-8444-444444444444.jsonl`]: "",
      [`-other/${C}.jsonl`]: transcript("/other", "other folder"),
    });
    const listed = await listClaudeSessions({ configDir: dir }, { cwd: CWD, limit: 10 });
    expect(listed.map((s) => [s.nativeThreadRef, s.title]).sort()).toEqual([
      [A, "fix the parser"],
      [B, "My title"],
    ]);
    expect(listed[0]).toMatchObject({ cwd: CWD, createdAt: "2026-01-02T03:04:05.000Z" });
    expect(await listClaudeSessions({ configDir: dir }, { cwd: CWD, limit: 1 })).toHaveLength(1);
    expect(await listClaudeSessions({ configDir: dir }, { cwd: "/nowhere", limit: 10 })).toEqual(
      [],
    );
  });

  it("B6: reads one session's turns; an unknown or malformed id is null", async () => {
    const dir = configDir({ [`${FOLDER}/${A}.jsonl`]: transcript(CWD, "fix the parser") });
    const read = await readClaudeSession({ configDir: dir }, A);
    expect(read?.turns).toEqual([
      {
        nativeTurnRef: "u1",
        ordinal: 1,
        userText: "fix the parser",
        assistantText: "re: fix the parser",
      },
    ]);
    expect(await readClaudeSession({ configDir: dir }, B)).toBeNull();
    expect(await readClaudeSession({ configDir: dir }, "../../etc/passwd")).toBeNull();
  });
});
