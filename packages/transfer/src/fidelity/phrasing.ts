/**
 * Varied phrasing for the fidelity generator: each planted fact is said one of several ways,
 * inside ordinary chatter, so the bench measures extraction rules, not one sentence shape.
 */
export type Rng = () => number;

/** mulberry32: small, seeded, deterministic. */
export function seeded(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rng: Rng, list: readonly T[]): T {
  const item = list[Math.floor(rng() * list.length)];
  if (item === undefined) throw new RangeError("pick from an empty list");
  return item;
}

const NOUNS = [
  "heron",
  "larch",
  "quartz",
  "ember",
  "falcon",
  "cobalt",
  "juniper",
  "marlin",
  "osprey",
  "sable",
  "tundra",
  "vesper",
  "willow",
  "zircon",
  "basalt",
  "cirrus",
];

/** A token no filler text contains: a made-up name with a number (e.g. "osprey-417"). */
export function needle(rng: Rng, used: Set<string>): string {
  for (;;) {
    const name = `${pick(rng, NOUNS)}-${100 + Math.floor(rng() * 900)}`;
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
  }
}

type T1 = (a: string) => string;
type T2 = (a: string, b: string) => string;
type T3 = (a: string, b: string, c: string) => string;

export const GOAL: readonly T1[] = [
  (n) => `The goal here is a billing export service we call ${n}.`,
  (n) => `What I want in the end is ${n}: one service that exports invoices every night.`,
  (n) => `We're building ${n}, a small service that turns ledger rows into nightly exports.`,
  (n) => `Our objective for this project is to ship ${n} as the nightly invoice exporter.`,
];

export const SUBJECTS = [
  "the session store",
  "the job queue",
  "the search index",
  "the metrics pipeline",
  "the config loader",
  "the auth tokens",
  "the export format",
  "the retry policy",
  "the rate limiter",
  "the audit log",
  "the cache layer",
  "the CSV parser",
];

export const DECISION: readonly T2[] = [
  (x, s) => `Let's go with ${x} for ${s}.`,
  (x, s) => `We decided to use ${x} for ${s}.`,
  (x, s) => `For ${s} we will use ${x}, that's settled.`,
  (x, s) => `I've settled on ${x} for ${s}.`,
  (x, s) => `Going with ${x} for ${s}, final answer.`,
];

/** Reverses decision `x` on `s` in favour of `y` (its own planted, current decision). */
export const REVERSAL: readonly T3[] = [
  (x, s, y) => `Actually, scratch ${x} for ${s}: use ${y} instead.`,
  (x, s, y) => `Changed my mind on ${s}. We'll use ${y} rather than ${x}.`,
  (x, s, y) => `We no longer want ${x} for ${s}; let's go with ${y}.`,
  (x, s, y) => `On second thought, drop ${x} for ${s} and go with ${y}.`,
];

export const CONSTRAINT: readonly T2[] = [
  (n, s) => `The customer insists that ${s} must never call ${n} directly.`,
  (n, s) => `Hard requirement from the customer: ${s} has to stay compatible with ${n}.`,
  (n, s) => `Don't ever change the ${n} schema that ${s} writes, it's shared with finance.`,
  (n, s) => `Under no circumstances may ${s} send data to ${n}.`,
  (n, s) => `${s} must keep working offline, so no calls to ${n} at startup.`,
];

export const CONSTRAINT_LIFTED: readonly T2[] = [
  (n, s) => `The rule about ${s} and ${n} no longer applies, the customer relaxed it.`,
  (n, s) => `Good news: we can drop the ${n} requirement for ${s}.`,
  (n, s) => `Forget the ${n} constraint on ${s}, it was waived this morning.`,
];

export const PREFERENCE: readonly T1[] = [
  (n) => `I prefer small functions named like ${n} over long classes.`,
  (n) => `Please always name test fixtures after the ${n} convention.`,
  (n) => `I'd rather we log with the ${n} format than with plain strings.`,
];

export const TASK: readonly T1[] = [
  (n) => `We still need to write the ${n} migration for the orders table.`,
  (n) => `TODO: add a retry around the ${n} upload.`,
  (n) => `Remember to document the ${n} flag before we ship.`,
  (n) => `Don't forget to remove the ${n} feature toggle later.`,
  (n) => `Someone needs to benchmark the ${n} importer at some point.`,
];

export const TASK_CLOSED: readonly T1[] = [
  (n) => `The ${n} work is done now.`,
  (n) => `Finished the ${n} item, that one is closed.`,
  (n) => `We can drop the ${n} task, it's not needed anymore.`,
];

export const FILLER_ASKS: readonly T1[] = [
  (m) => `Run the linter on ${m} and tell me what it says.`,
  (m) => `Can you look at the logs for ${m}?`,
  (m) => `Show me the current diff for ${m}.`,
  (m) => `Looks fine. Continue with ${m}.`,
  (m) => `Tidy up the imports in ${m}.`,
  (m) => `Add a couple of unit tests for ${m}.`,
  (m) => `Why is ${m} slow on the first request?`,
  (m) => `Rename the helper in ${m} to something clearer.`,
];

export const FILLER_REPLIES: readonly T1[] = [
  (m) =>
    `I looked at ${m}. The module reads its input, validates each row and hands the result to the writer; nothing there looks wrong, but the error messages could be clearer. I left the behaviour as it was and only adjusted the wording of two messages.`,
  (m) =>
    `Done: ${m} now has tests for the empty input, a single row and a malformed row. All of them pass locally. The malformed case used to throw a generic error; it now names the column that failed.`,
  (m) =>
    `The first request to ${m} warms a cache of parsed templates, which takes about a second. Later requests reuse it. We could warm it at startup, but that would slow down the boot of every worker.`,
  (m) =>
    `I renamed the helper in ${m} and updated its three call sites. The linter is clean and the type check passes.`,
];

export const MODULES = [
  "src/export/writer.ts",
  "src/ledger/rows.ts",
  "src/api/routes.ts",
  "src/jobs/nightly.ts",
  "src/util/dates.ts",
  "src/db/pool.ts",
  "src/cli/main.ts",
  "src/auth/session.ts",
];
