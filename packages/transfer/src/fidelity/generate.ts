import * as P from "./phrasing.ts";

export type GenCommand = {
  readonly input: string;
  readonly output: string;
  readonly exitCode: number;
};
export type GenFile = {
  readonly fileName: string;
  readonly additions: number;
  readonly deletions: number;
  readonly diff: string;
};
export type GenRun = {
  readonly user: string;
  readonly assistant: string;
  readonly commands: readonly GenCommand[];
  readonly files: readonly GenFile[];
  /** A todo list the runtime reported in this run (E17), or null. */
  readonly todo:
    | readonly { readonly text: string; readonly status: "pending" | "completed" }[]
    | null;
};

export type FactKind =
  | "goal"
  | "decision"
  | "constraint"
  | "preference"
  | "task"
  | "file"
  | "error";

/**
 * A planted fact: `needle` is a token only it contains. A fact that is no longer current must
 * not be presented as current; `replacedBy` are the needles of what replaced it (a line naming
 * both is the reversal itself, not a leak).
 */
export type PlantedFact = {
  readonly kind: FactKind;
  readonly needle: string;
  /** 1-based run where it was stated. */
  readonly run: number;
  readonly current: boolean;
  readonly replacedBy: readonly string[];
};

export type GeneratedThread = {
  readonly seed: number;
  readonly runs: readonly GenRun[];
  readonly facts: readonly PlantedFact[];
};

type Draft = {
  user: string[];
  assistant: string;
  commands: GenCommand[];
  files: GenFile[];
  todo: GenRun["todo"];
};

/**
 * A deterministic thread of `length` runs (same seed, same thread) with planted facts of every
 * kind, said in varied words inside ordinary chatter, spread over the whole thread (not only its
 * ends): a goal, decisions (some reversed later), constraints (one lifted later), preferences,
 * open tasks and tasks closed later (by the person or on a todo list), a file changed many times
 * (only its latest state counts), a failed command with its error (and one fixed later).
 */
export function generateThread(length: number, seed: number): GeneratedThread {
  if (!Number.isInteger(length) || length < 12)
    throw new RangeError("length must be an integer ≥ 12");
  const rng = P.seeded(seed);
  const used = new Set<string>();
  const n = () => P.needle(rng, used);
  const drafts: Draft[] = Array.from({ length }, () => {
    const module = P.pick(rng, P.MODULES);
    return {
      user: [P.pick(rng, P.FILLER_ASKS)(module)],
      assistant: P.pick(rng, P.FILLER_REPLIES)(module),
      commands: [
        { input: `pnpm vitest run ${module}`, output: "Tests 4 passed (4)\n", exitCode: 0 },
      ],
      files:
        rng() < 0.4
          ? [{ fileName: module, additions: 3, deletions: 1, diff: `@@\n-  old line\n+  new line` }]
          : [],
      todo: null,
    };
  });
  const facts: PlantedFact[] = [];
  // Runs in [from, to) of the thread, as 0-based indexes; never the last run (the new message).
  const at = (from = 0, to = 1) => Math.floor((from + rng() * (to - from)) * (length - 1));
  const say = (run: number, text: string) => {
    const draft = drafts[run];
    if (draft) draft.user.splice(Math.floor(rng() * (draft.user.length + 1)), 0, text);
  };
  const scale = Math.max(1, Math.floor(Math.log10(length)));
  const subjects = [...P.SUBJECTS].sort(() => rng() - 0.5);
  const subject = () => subjects.pop() ?? "the worker pool";

  const goal = n();
  const goalRun = at(0, 0.3);
  say(goalRun, P.pick(rng, P.GOAL)(goal));
  facts.push({ kind: "goal", needle: goal, run: goalRun + 1, current: true, replacedBy: [] });

  for (let i = 0; i < 2 * scale; i++) {
    const x = n();
    const s = subject();
    const run = at(0, 0.9);
    say(run, P.pick(rng, P.DECISION)(x, s));
    if (i % 2 === 1) {
      const y = n();
      const later = run + 1 + Math.floor(rng() * (length - 2 - run));
      say(later, P.pick(rng, P.REVERSAL)(x, s, y));
      facts.push({ kind: "decision", needle: x, run: run + 1, current: false, replacedBy: [y] });
      facts.push({ kind: "decision", needle: y, run: later + 1, current: true, replacedBy: [] });
    } else {
      facts.push({ kind: "decision", needle: x, run: run + 1, current: true, replacedBy: [] });
    }
  }
  for (let i = 0; i < scale + 1; i++) {
    const c = n();
    const s = subject();
    const run = at(0, 0.9);
    say(run, P.pick(rng, P.CONSTRAINT)(c, s));
    const lifted = i === scale;
    if (lifted) {
      const later = run + 1 + Math.floor(rng() * (length - 2 - run));
      say(later, P.pick(rng, P.CONSTRAINT_LIFTED)(c, s));
    }
    facts.push({ kind: "constraint", needle: c, run: run + 1, current: !lifted, replacedBy: [] });
  }
  // Distinct templates: two preferences said alike are one preference restated (the newer wins).
  const preferences = [...P.PREFERENCE].sort(() => rng() - 0.5);
  for (let i = 0; i < Math.min(scale, preferences.length); i++) {
    const p = n();
    const run = at(0, 0.9);
    say(run, preferences[i]!(p));
    facts.push({ kind: "preference", needle: p, run: run + 1, current: true, replacedBy: [] });
  }
  for (let i = 0; i < 2 * scale; i++) {
    const t = n();
    const run = at(0, 0.9);
    say(run, P.pick(rng, P.TASK)(t));
    const closed = i % 2 === 1;
    if (closed) {
      const later = run + 1 + Math.floor(rng() * (length - 2 - run));
      say(later, P.pick(rng, P.TASK_CLOSED)(t));
    }
    facts.push({ kind: "task", needle: t, run: run + 1, current: !closed, replacedBy: [] });
  }
  // Todo lists the runtime reported: one step stays open, one is completed later.
  const openStep = n();
  const doneStep = n();
  const listed = at(0.1, 0.6);
  const completed = listed + 1 + Math.floor(rng() * (length - 2 - listed));
  const steps = (done: boolean) => [
    { text: `Wire the ${openStep} exporter into the nightly job`, status: "pending" as const },
    {
      text: `Backfill the ${doneStep} column`,
      status: done ? ("completed" as const) : ("pending" as const),
    },
  ];
  drafts[listed]!.todo = steps(false);
  drafts[completed]!.todo = steps(true);
  facts.push({ kind: "task", needle: openStep, run: listed + 1, current: true, replacedBy: [] });
  facts.push({ kind: "task", needle: doneStep, run: listed + 1, current: false, replacedBy: [] });

  // One file changed many times: only the latest value counts.
  const file = `src/config/${n()}.ts`;
  const edits = Math.max(3, 3 * scale);
  let previous = "10";
  const values: string[] = [];
  for (let i = 0; i < edits; i++) {
    const value = n().replace(/-/g, "_");
    const run = Math.floor(((i + 0.5) / edits) * (length - 1));
    drafts[run]!.files.push({
      fileName: file,
      additions: 1,
      deletions: 1,
      diff: `@@ -1 +1 @@\n-export const LIMIT = "${previous}";\n+export const LIMIT = "${value}";`,
    });
    values.push(value);
    previous = value;
  }
  values.forEach((value, i) => {
    const last = i === values.length - 1;
    facts.push({
      kind: "file",
      needle: value,
      run: 0,
      current: last,
      replacedBy: last ? [] : [values.at(-1)!],
    });
  });

  // A failed command whose error still stands, and one fixed by a later success.
  const broken = n();
  const failRun = at(0.2, 0.95);
  drafts[failRun]!.commands.push({
    input: `pnpm test --filter ${broken}`,
    output: `FAIL src/${broken}.test.ts\nError: expected status 200, got 503 (${broken}-upstream)\n`,
    exitCode: 1,
  });
  facts.push({
    kind: "error",
    needle: `${broken}-upstream`,
    run: failRun + 1,
    current: true,
    replacedBy: [],
  });
  const fixed = n();
  const fixRun = at(0.1, 0.5);
  drafts[fixRun]!.commands.push({
    input: `pnpm build --filter ${fixed}`,
    output: `error TS2322: ${fixed}-typeerror\n`,
    exitCode: 2,
  });
  const laterFix = fixRun + 1 + Math.floor(rng() * (length - 2 - fixRun));
  drafts[laterFix]!.commands.push({
    input: `pnpm build --filter ${fixed}`,
    output: "built\n",
    exitCode: 0,
  });
  facts.push({
    kind: "error",
    needle: `${fixed}-typeerror`,
    run: fixRun + 1,
    current: false,
    replacedBy: [],
  });

  const runs: GenRun[] = drafts.map((d) => ({
    user: d.user.join(" "),
    assistant: d.assistant,
    commands: d.commands,
    files: d.files,
    todo: d.todo,
  }));
  return { seed, runs, facts: facts.sort((a, b) => a.run - b.run) };
}
