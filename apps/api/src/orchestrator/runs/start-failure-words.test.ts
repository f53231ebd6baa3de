import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeStartFailure } from "./workspace-check.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-start-words-"));
  folders.push(dir);
  return dir;
}

class CodexRequestTimeoutError extends Error {
  override readonly name = "CodexRequestTimeoutError";
}

describe("a runtime that failed to start, in words", () => {
  it("a start request the runtime did not answer in time says it is busy, not that the setup is wrong", async () => {
    const words = await describeStartFailure(
      new CodexRequestTimeoutError("thread/start got no answer within 60000 ms"),
      "codex",
      folder(),
    );
    expect(words).toBe(
      "The Codex runtime did not answer in time (thread/start got no answer within 60000 ms): it is busy or the machine is loaded. Send the message again.",
    );
  });

  it("any other start failure still points at the provider's setup", async () => {
    const words = await describeStartFailure(new Error("not signed in"), "codex", folder());
    expect(words).toMatch(
      /^The Codex runtime could not be started: not signed in\. Check the provider's setup/,
    );
  });
});
