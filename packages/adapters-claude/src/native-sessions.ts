import { existsSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import type { NativeSessionRead, NativeSessionSummary } from "@skein/domain/provider";
import type { ClaudeConfig } from "./config.ts";
import { historyFromTranscript } from "./transcript-history.ts";
import { claudeConfigDir, transcriptPath } from "./transcripts.ts";

/** Claude Code's session ids are UUIDs; anything else never names a transcript file. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Claude Code's folder name for a project: the path with every character outside [A-Za-z0-9]
 * turned into "-" (long paths are cut and suffixed with a hash, so a prefix is matched too).
 * It only narrows the search: each transcript's own `cwd` decides.
 */
function projectDirNames(cwd: string): { exact: string; prefix: string } {
  const exact = cwd.replace(/[^a-zA-Z0-9]/g, "-");
  return { exact, prefix: exact.slice(0, 200) };
}

type TranscriptFacts = { cwd: string | null; createdAt: string | null; title: string | null };

/** What a transcript says about itself: its folder, its first timestamp, a title if it has one. */
function transcriptFacts(text: string): TranscriptFacts {
  const facts: TranscriptFacts = { cwd: null, createdAt: null, title: null };
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (entry.isSidechain === true) continue;
    if (facts.cwd === null && typeof entry.cwd === "string") facts.cwd = entry.cwd;
    if (facts.createdAt === null && typeof entry.timestamp === "string") {
      facts.createdAt = entry.timestamp;
    }
    // A title the person set (/rename) wins over a generated summary.
    if (entry.type === "custom-title" && typeof entry.customTitle === "string") {
      facts.title = entry.customTitle;
    } else if (entry.type === "summary" && typeof entry.summary === "string" && !facts.title) {
      facts.title = entry.summary;
    }
  }
  return facts;
}

async function readTranscript(path: string, sessionId: string): Promise<NativeSessionRead | null> {
  const text = await readFile(path, "utf8");
  const turns = historyFromTranscript(text);
  const facts = transcriptFacts(text);
  if (turns.length === 0 || facts.cwd === null) return null;
  const modified = (await stat(path)).mtime.toISOString();
  const firstPrompt = turns[0]?.userText?.trim().split("\n")[0] ?? "";
  return {
    session: {
      nativeThreadRef: sessionId,
      title: (facts.title ?? firstPrompt).slice(0, 200) || "Claude session",
      cwd: facts.cwd,
      createdAt: facts.createdAt,
      updatedAt: modified,
    },
    turns,
  };
}

/**
 * B6: the person's Claude sessions in `cwd`, newest first: the transcripts under the config
 * dir's `projects/<folder>/`, each kept only when it records that exact `cwd` and has a prompt.
 * Read here rather than through the SDK's `listSessions`, which only sees the server process's
 * own config dir, not the one this adapter is configured with.
 */
export async function listClaudeSessions(
  config: ClaudeConfig,
  input: { cwd: string; limit: number },
): Promise<NativeSessionSummary[]> {
  const projects = join(claudeConfigDir(config), "projects");
  if (!existsSync(projects)) return [];
  const names = projectDirNames(input.cwd);
  const dirs = (await readdir(projects)).filter(
    (dir) => dir === names.exact || (names.exact.length > 200 && dir.startsWith(names.prefix)),
  );
  const found: NativeSessionSummary[] = [];
  for (const dir of dirs) {
    for (const file of await readdir(join(projects, dir))) {
      const sessionId = basename(file, ".jsonl");
      if (!file.endsWith(".jsonl") || !SESSION_ID.test(sessionId)) continue;
      const read = await readTranscript(join(projects, dir, file), sessionId);
      if (read && read.session.cwd === input.cwd) found.push(read.session);
    }
  }
  found.sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? ""));
  return found.slice(0, input.limit);
}

/** B6: one Claude session with its turns (parsed from its transcript); null when there is none. */
export async function readClaudeSession(
  config: ClaudeConfig,
  sessionId: string,
): Promise<NativeSessionRead | null> {
  if (!SESSION_ID.test(sessionId)) return null;
  const path = transcriptPath(config, sessionId);
  return path ? readTranscript(path, sessionId) : null;
}
