import type { RunContent } from "../handoff-content.ts";
import { truncateMiddle } from "../token-budget.ts";
import type { BriefError, BriefFact, BriefFile, FactKind, RunRef } from "./brief-types.ts";
import { CUE_WORDS, closes, isQuestion, kindsOf, type StatementKind } from "./cues.ts";
import { salientWords, sentencesOf } from "./text.ts";

const MAX_STATEMENT_CHARS = 400;
const MAX_GOAL_CHARS = 700;
const MAX_ERROR_OUTPUT_CHARS = 400;
const MAX_FILE_DIFF_CHARS = 900;

/** Most specific first: a sentence that states a task and a constraint is listed as the task. */
const KIND_ORDER: readonly StatementKind[] = [
  "task",
  // A hedge ("I'd rather", "I prefer") makes a limit a preference, not a constraint.
  "preference",
  "constraint",
  "decision",
  "goal",
];

/** Kinds where a newer statement on the same subject replaces the older one by itself. */
const REPLACED_BY_NEWER = new Set<FactKind>(["decision", "preference", "goal"]);

/** Agents report work and choices; only these phrasings of theirs are kept as facts. */
const AGENT_DECISION = /\b(?:i|we) (?:decided|chose|went with|settled on|opted for|picked)\b/i;
const AGENT_TASK =
  /\b(?:todo|to-do|follow[- ]?up|still (?:need|needs|have) to|left to do|remaining:)\b/i;

type Tracked = { fact: BriefFact; words: Set<string> };

export type ExtractedFacts = {
  readonly goal: BriefFact[];
  readonly active: BriefFact[];
  readonly closed: BriefFact[];
  readonly files: BriefFile[];
  readonly errors: BriefError[];
};

function cap(text: string, max: number): string {
  return truncateMiddle(text, max) ?? text.slice(0, max);
}

/**
 * Whether `words` (a closing or newer statement) singles out `target` among the facts in force:
 * they share a word no other fact in force has (a name, a number), or at least three words.
 */
function singlesOut(
  words: ReadonlySet<string>,
  target: Tracked,
  active: readonly Tracked[],
  rare: (word: string) => boolean,
): boolean {
  let shared = 0;
  let distinctive = false;
  for (const word of target.words) {
    if (!words.has(word)) continue;
    shared++;
    if (
      !distinctive &&
      rare(word) &&
      active.every((other) => other === target || !other.words.has(word))
    ) {
      distinctive = true;
    }
  }
  return distinctive || shared >= 3;
}

/** A word said in at most this many sentences of the covered runs names something specific. */
const RARE_SENTENCES = 6;

type Said = { readonly text: string; readonly words: Set<string> | null };

/** An agent's reply can close a task or state a decision or task only if one of its cues occurs. */
function mightMatter(reply: string | null): boolean {
  return reply !== null && (closes(reply) || AGENT_TASK.test(reply) || AGENT_DECISION.test(reply));
}
type Sentences = { readonly user: Said[]; readonly assistant: Said[] };

/**
 * Every run's sentences, once, with the subject words of the person's (agents' are worked out
 * only for the few that say something), and in how many of the person's sentences each word
 * occurs: a word the person rarely says names something specific.
 */
function sentencesByRun(contents: readonly RunContent[]) {
  const counts = new Map<string, number>();
  const byRun: Sentences[] = contents.map((content) => ({
    user: sentencesOf(content.userMessage ?? "").map((sentence) => {
      const words = salientWords(sentence, CUE_WORDS);
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
      return { text: sentence, words };
    }),
    // Most replies say nothing the brief keeps: split only those that might.
    assistant: mightMatter(content.assistantReply)
      ? sentencesOf(content.assistantReply ?? "").map((text) => ({ text, words: null }))
      : [],
  }));
  return { byRun, counts };
}

/**
 * Facts from the covered runs, in conversation order, decided only by what the runs hold: the
 * person's statements (by kind of statement), agents' explicit decisions and todo notes, the
 * runtime's todo lists (E17), file changes and failed commands. A later statement that closes or
 * reverses one on the same subject moves it to `closed`; so does a newer decision on the same
 * subject, a completed todo step, and a later success of a failed command (dropped as fixed).
 */
export function extractFacts(contents: readonly RunContent[]): ExtractedFacts {
  const { byRun, counts } = sentencesByRun(contents);
  const rare = (word: string) => (counts.get(word) ?? 0) <= RARE_SENTENCES;
  const active: Tracked[] = [];
  const closed: BriefFact[] = [];
  const goal: BriefFact[] = [];
  const todo = new Map<string, Tracked>();
  const files = new Map<string, BriefFile>();
  const failures = new Map<string, BriefError>();

  const close = (target: Tracked, by: RunRef) => {
    const at = active.indexOf(target);
    if (at >= 0) active.splice(at, 1);
    closed.push({ ...target.fact, closedBy: by });
  };
  /** Closes what `words` singles out; says whether anything was closed. */
  const closeMatching = (words: Set<string>, by: RunRef, kinds: ReadonlySet<FactKind> | null) => {
    const hits = active.filter(
      (tracked) =>
        (kinds === null || kinds.has(tracked.fact.kind)) &&
        singlesOut(words, tracked, active, rare),
    );
    for (const tracked of hits) close(tracked, by);
    return hits.length > 0;
  };

  contents.forEach((content, index) => {
    const sentences = byRun[index] ?? { user: [], assistant: [] };
    const run: RunRef = { threadId: content.threadId, ordinal: content.ordinal };
    if (content.userMessage !== null && goal.length === 0) {
      // The conversation's first request is its goal until the person says otherwise.
      goal.push({
        kind: "goal",
        text: cap(content.userMessage, MAX_GOAL_CHARS),
        by: "person",
        run,
      });
    }
    for (const { text: sentence, words: said } of sentences.user) {
      if (isQuestion(sentence)) continue;
      const words = said ?? salientWords(sentence, CUE_WORDS);
      const closedSome = closes(sentence) && closeMatching(words, run, null);
      const kinds = kindsOf(sentence);
      // Lifting a constraint or closing a task states nothing new in force; a reversed
      // decision usually names its replacement ("use Y instead"), which is kept.
      const kind = closedSome
        ? kinds.has("decision")
          ? "decision"
          : undefined
        : KIND_ORDER.find((k) => kinds.has(k));
      if (kind === undefined) continue;
      if (REPLACED_BY_NEWER.has(kind)) closeMatching(words, run, new Set([kind]));
      const fact: BriefFact = { kind, text: cap(sentence, MAX_STATEMENT_CHARS), by: "person", run };
      active.push({ fact, words });
    }
    for (const { text: sentence } of sentences.assistant) {
      if (isQuestion(sentence)) continue;
      const closing = closes(sentence);
      const agentKind: FactKind | null = AGENT_TASK.test(sentence)
        ? "task"
        : AGENT_DECISION.test(sentence)
          ? "decision"
          : null;
      if (!closing && agentKind === null) continue;
      const words = salientWords(sentence, CUE_WORDS);
      // An agent may finish a task; only the person reverses decisions and constraints.
      if (closing) closeMatching(words, run, new Set<FactKind>(["task"]));
      if (agentKind === null) continue;
      active.push({
        fact: { kind: agentKind, text: cap(sentence, MAX_STATEMENT_CHARS), by: "agent", run },
        words,
      });
    }
    for (const step of content.todoSteps) {
      const key = step.text.toLowerCase();
      const words = salientWords(step.text, CUE_WORDS);
      const previous = todo.get(key);
      if (previous) {
        const at = active.indexOf(previous);
        if (at >= 0) active.splice(at, 1);
      }
      const status =
        step.status === "completed" || step.status === "running" ? step.status : "pending";
      const fact: BriefFact = {
        kind: "task",
        text: cap(step.text, MAX_STATEMENT_CHARS),
        by: "todo",
        // Cited where the step was first listed; its closing run is `closedBy`.
        run: previous?.fact.run ?? run,
        status,
      };
      const tracked = { fact, words };
      todo.set(key, tracked);
      if (status === "completed") {
        closed.push({ ...fact, closedBy: run });
        // A completed step also closes the person's or an agent's note of the same task.
        closeMatching(words, run, new Set<FactKind>(["task"]));
      } else {
        active.push(tracked);
      }
    }
    content.fileChanges.forEach((change, i) => {
      const before = files.get(change.fileName);
      const add = (a: number | null, b: number | null) =>
        a === null && b === null ? null : (a ?? 0) + (b ?? 0);
      const diff = content.fileDiffs[i] ?? null;
      files.set(change.fileName, {
        fileName: change.fileName,
        changes: (before?.changes ?? 0) + 1,
        additions: add(before?.additions ?? null, change.additions),
        deletions: add(before?.deletions ?? null, change.deletions),
        lastRun: run,
        latestDiff: diff !== null ? cap(diff, MAX_FILE_DIFF_CHARS) : null,
      });
    });
    content.commands.forEach((command, i) => {
      const key = normalizedCommand(command.input);
      const failed =
        (command.exitCode !== null && command.exitCode !== 0) || command.status === "failed";
      if (!failed) {
        failures.delete(key);
        return;
      }
      const output = content.commandOutputs[i] ?? null;
      failures.delete(key);
      failures.set(key, {
        command: command.input,
        exitCode: command.exitCode,
        output: output !== null ? lastChars(output, MAX_ERROR_OUTPUT_CHARS) : null,
        run,
      });
    });
  });

  const goals = active.filter((t) => t.fact.kind === "goal").map((t) => t.fact);
  return {
    goal: [...goal, ...goals],
    active: active.filter((t) => t.fact.kind !== "goal").map((t) => t.fact),
    closed,
    files: [...files.values()].sort(
      (a, b) => (a.lastRun?.ordinal ?? 0) - (b.lastRun?.ordinal ?? 0),
    ),
    errors: [...failures.values()],
  };
}

function normalizedCommand(input: string): string {
  return input.replace(/\s+/g, " ").trim();
}

/** An error's cause is usually at the end of its output. */
function lastChars(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max + 1)}`;
}
