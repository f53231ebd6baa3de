import { readFile } from "node:fs/promises";
import type { NativeHistoryTurn } from "@skein/domain/provider";

/** The transcript fields history reading relies on (Claude Code writes many more). */
type TranscriptEntry = {
  type: string;
  uuid: string | null;
  parentUuid: string | null;
  isSidechain: boolean;
  isMeta: boolean;
  isApiError: boolean;
  content: unknown;
};

type Block = { type?: unknown; text?: unknown };

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function toEntry(line: string): TranscriptEntry | null {
  let raw: Record<string, unknown>;
  try {
    raw = record(JSON.parse(line));
  } catch {
    // A line cut short by a crash mid-write: the rest of the file is still good.
    return null;
  }
  if (typeof raw.type !== "string") return null;
  return {
    type: raw.type,
    uuid: typeof raw.uuid === "string" ? raw.uuid : null,
    parentUuid: typeof raw.parentUuid === "string" ? raw.parentUuid : null,
    isSidechain: raw.isSidechain === true,
    isMeta: raw.isMeta === true,
    isApiError: raw.isApiErrorMessage === true || typeof raw.error === "string",
    content: record(raw.message).content,
  };
}

function blocks(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.map((b) => record(b) as Block) : [];
}

const INJECTED = /^\s*<system-reminder>/;
const SYNTHETIC_USER = /^\[Request interrupted/;

function texts(content: unknown): string[] {
  return blocks(content)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => String(b.text))
    .filter((t) => !INJECTED.test(t));
}

/** A user entry that starts a turn: typed text, not a tool result or a CLI-made notice. */
function isPrompt(entry: TranscriptEntry): boolean {
  if (entry.type !== "user" || entry.isMeta) return false;
  const all = blocks(entry.content);
  if (all.some((b) => b.type === "tool_result")) return false;
  const typed = texts(entry.content);
  return typed.length > 0 && !typed.every((t) => SYNTHETIC_USER.test(t));
}

/**
 * The conversation as Claude Code will resume it. A transcript is a tree (`parentUuid`): a
 * rewind (`resumeSessionAt`) keeps the dropped entries in the file and continues from the cut,
 * so the live branch is the chain ending at the last main-thread entry.
 */
function activeChain(entries: TranscriptEntry[]): TranscriptEntry[] {
  const byUuid = new Map<string, TranscriptEntry>();
  for (const entry of entries) if (entry.uuid) byUuid.set(entry.uuid, entry);
  const last = entries.findLast(
    (e) => (e.type === "user" || e.type === "assistant") && !e.isSidechain && e.uuid,
  );
  const chain: TranscriptEntry[] = [];
  const seen = new Set<string>();
  for (let at = last; at?.uuid && !seen.has(at.uuid); ) {
    seen.add(at.uuid);
    chain.push(at);
    at = at.parentUuid ? byUuid.get(at.parentUuid) : undefined;
  }
  return chain.reverse();
}

/** One turn on the live branch: its prompt entry and the last entry that belongs to it. */
type ChainTurn = {
  promptUuid: string;
  lastEntryUuid: string;
  userText: string;
  assistantTexts: string[];
};

function chainTurns(text: string): { turns: ChainTurn[]; entryUuids: Set<string> } {
  const entries = parseEntries(text);
  const turns: ChainTurn[] = [];
  const entryUuids = new Set<string>();
  for (const entry of activeChain(entries)) {
    if (entry.isSidechain || (entry.type !== "user" && entry.type !== "assistant")) continue;
    if (!entry.uuid) continue;
    entryUuids.add(entry.uuid);
    if (isPrompt(entry)) {
      const userText = texts(entry.content).join("\n");
      turns.push({
        promptUuid: entry.uuid,
        lastEntryUuid: entry.uuid,
        userText,
        assistantTexts: [],
      });
      continue;
    }
    const turn = turns.at(-1);
    if (!turn) continue;
    turn.lastEntryUuid = entry.uuid;
    if (entry.type === "assistant" && !entry.isApiError) {
      turn.assistantTexts.push(...texts(entry.content));
    }
  }
  return { turns, entryUuids };
}

/**
 * Turns of a transcript: each typed user message and everything up to the next one. The native
 * turn ref is the prompt's uuid, the ref `turn.started`/`turn.completed` report (E10).
 */
export function historyFromTranscript(text: string): NativeHistoryTurn[] {
  return chainTurns(text).turns.map((turn, i) => ({
    nativeTurnRef: turn.promptUuid,
    ordinal: i + 1,
    userText: turn.userText,
    assistantText: turn.assistantTexts.length > 0 ? turn.assistantTexts.join("\n") : null,
  }));
}

/**
 * The entry a fork or rewind must cut at to keep the turn `ref` whole: Claude Code keeps history
 * "up to and including" the named entry, so a turn is kept by naming its last entry (its final
 * assistant text, or a tool result / interrupt marker when it ended on one). `ref` is a turn's
 * prompt uuid; any other entry on the live branch is taken as the cut itself. Null when the
 * transcript does not hold it (e.g. a turn whose process died before its prompt was written).
 */
export function cutEntryInTranscript(text: string, ref: string): string | null {
  const { turns, entryUuids } = chainTurns(text);
  const turn = turns.find((t) => t.promptUuid === ref);
  if (turn) return turn.lastEntryUuid;
  return entryUuids.has(ref) ? ref : null;
}

function parseEntries(text: string): TranscriptEntry[] {
  return text
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map(toEntry)
    .filter((e): e is TranscriptEntry => e !== null);
}

/**
 * Where to resume a conversation so that prompts the model refused are left out. Claude Code keeps
 * a prompt whose request failed (an API error answered it) and merges it into the next user
 * message, so a prompt the model always refuses would fail every later message too. When the live
 * branch ends on such prompts (each answered only by API errors), this names the entry just before
 * the first of them: `{ at }` to resume there, `{ at: null }` when nothing precedes it (the
 * conversation must start afresh). Null when the branch does not end on a refused prompt.
 */
export function failedPromptCut(text: string): { at: string | null } | null {
  const chain = activeChain(parseEntries(text)).filter(
    (e) => (e.type === "user" || e.type === "assistant") && !e.isSidechain,
  );
  let cut: { at: string | null } | null = null;
  let i = chain.length - 1;
  for (;;) {
    let errors = 0;
    while (i >= 0 && chain[i]?.type === "assistant" && chain[i]?.isApiError) {
      errors++;
      i--;
    }
    const prompt = chain[i];
    if (errors === 0 || !prompt || !isPrompt(prompt)) return cut;
    cut = { at: prompt.parentUuid };
    i--;
  }
}

/** Reads a transcript file's turns; a missing file has none. */
export async function readTranscriptHistory(path: string | null): Promise<NativeHistoryTurn[]> {
  if (!path) return [];
  return historyFromTranscript(await readFile(path, "utf8"));
}
