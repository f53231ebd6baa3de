import fs from "node:fs/promises";
import { folderStateOf, mayReadWriteEnter } from "../../workspace/folder-check.ts";
import { providerDisplayName } from "@skein/domain/provider";
import { swappedFolderMessage } from "../../workspace/held-path.ts";

/**
 * Why a run cannot work in `folder`, in words a person can act on, or null when it is usable.
 * Checked at every run start: a project's folder (or a fork's worktree) can be moved or deleted
 * at any time after it was created.
 */
export async function workspaceProblem(folder: string): Promise<string | null> {
  // One lstat serves both rules: a symbolic link is the swap of issue 35, and for anything else
  // it says what stat would. Taken with the access check at once: each is a thread-pool round
  // trip, and this is on every run's way to its provider (on a loaded machine a round trip can
  // cost more than the run's own work).
  const [entry, usable] = await Promise.all([
    fs.lstat(folder).catch((error: unknown) => error as NodeJS.ErrnoException),
    mayReadWriteEnter(folder),
  ]);
  if (!(entry instanceof Error) && entry.isSymbolicLink()) return swappedFolderMessage(folder);
  const state = folderStateOf(entry, usable);
  switch (state.kind) {
    case "usable":
      return null;
    case "unreachable": {
      const code = state.error.code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        return (
          `The workspace folder ${folder} does not exist (it may have been moved or deleted). ` +
          "Restore it (or create a project for the folder's new place), then send the message again."
        );
      }
      return `The workspace folder ${folder} cannot be read (${code ?? String(state.error)}). Fix its permissions, then send the message again.`;
    }
    case "not_directory":
      return `The workspace ${folder} is not a folder. Put the project's folder back at that path, then send the message again.`;
    case "no_access":
      return `The workspace folder ${folder} is not readable and writable by the Skein server. Fix its permissions, then send the message again.`;
  }
}

/** The spawn error codes a missing or unusable working folder produces. */
const CWD_CODES = new Set(["ENOENT", "ENOTDIR", "EACCES"]);

/**
 * A provider runtime that failed to open: when the folder is the cause (a spawn ENOENT in a
 * missing cwd names the binary, not the folder), say so; otherwise name the provider's failure.
 */
export async function describeStartFailure(
  error: unknown,
  provider: string,
  folder: string,
): Promise<string> {
  const problem = await workspaceProblem(folder);
  if (problem) return problem;
  const text = withStderr(error);
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const name = providerDisplayName(provider);
  if (code && CWD_CODES.has(code) && /spawn/i.test(text)) {
    return `The ${name} runtime could not be launched (${text}). Check that ${name} is installed and on the server's PATH, then send the message again.`;
  }
  // A request the runtime did not answer in time (its thread start, under load) is no setup
  // problem: pointing the person at their setup would send them the wrong way.
  if (error instanceof Error && error.name.endsWith("RequestTimeoutError")) {
    return `The ${name} runtime did not answer in time (${text}): it is busy or the machine is loaded. Send the message again.`;
  }
  return `The ${name} runtime could not be started: ${text}. Check the provider's setup (provider status lists what is missing), then send the message again.`;
}

/** The error's message, with the last line the process printed when it has one (the why). */
function withStderr(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const tail = (error as { exit?: { stderrTail?: unknown } } | null)?.exit?.stderrTail;
  if (typeof tail !== "string") return text;
  // A Rust panic or error ends with a backtrace; the line that says why comes before it.
  const lines = (tail.split(/\n\s*Stack backtrace:/)[0] ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^WARNING\b/.test(line));
  const last = lines.filter((line) => /^error\b/i.test(line)).at(-1) ?? lines.at(-1);
  return last ? `${text}: ${last.slice(0, 300)}` : text;
}
