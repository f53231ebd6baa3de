import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { FIXTURES_DIR, readFixtures } from "../src/fixture-files.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const run = promisify(execFile);

/** `pnpm skein …` from the repository root, as a person runs it; resolves with its outcome. */
async function skein(...args: string[]) {
  try {
    const { stdout, stderr } = await run("pnpm", ["--silent", "skein", ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { providerSessionId: string | null; event: unknown });

describe("pnpm skein replay", () => {
  it("B8: prints a fixture's normalized events, one JSON line each", async () => {
    const { fixture } = readFixtures().find((f) => f.file === "claude-tool-approval.json") ?? {};
    if (!fixture) throw new Error("fixture missing");
    const out = await skein("replay", join(FIXTURES_DIR, "claude-tool-approval.json"));
    expect(out.code).toBe(0);
    const printed = lines(out.stdout);
    expect(printed.map((l) => l.event)).toEqual(fixture.events);
    expect(new Set(printed.map((l) => l.providerSessionId))).toEqual(
      new Set([fixture.frames[0]?.providerSessionId]),
    );
  }, 60_000);

  it("B8: replays a slice cut from a raw log file (JSON lines, no ids) the same way", async () => {
    const { fixture } = readFixtures().find((f) => f.file === "codex-tool-approval.json") ?? {};
    if (!fixture) throw new Error("fixture missing");
    const dir = mkdtempSync(join(tmpdir(), "skein-replay-slice-"));
    const slice = join(dir, "raw-000001.jsonl");
    // As the rotating log writes them: records without their own id.
    const records = fixture.frames.map(({ rawEventId: _id, ...record }) => JSON.stringify(record));
    writeFileSync(slice, `${records.join("\n")}\n`);
    const out = await skein("replay", slice);
    expect(out.code).toBe(0);
    const kinds = lines(out.stdout).map((l) => (l.event as { type: string }).type);
    expect(kinds).toEqual(fixture.events.map((e) => e.type));
  }, 60_000);

  it("a missing file or a file that is no raw log exits 1 with the reason; no arguments print usage", async () => {
    const missing = await skein("replay", "/nonexistent/slice.jsonl");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/skein replay: .*ENOENT|no such file/i);
    const dir = mkdtempSync(join(tmpdir(), "skein-replay-bad-"));
    writeFileSync(join(dir, "x.jsonl"), '{"hello":1}\n');
    const bad = await skein("replay", join(dir, "x.jsonl"));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/no direction/);
    const usage = await skein();
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/usage: pnpm skein replay/);
  }, 60_000);
});
