import type { FactKind, PlantedFact } from "./generate.ts";

/** Brief sections that present their items as current (see brief/render-brief.ts). */
const CURRENT_SECTIONS = [
  "## Goal",
  "## Decisions in force",
  "## Constraints in force",
  "## Preferences",
  "## Open tasks",
  "## State of the code",
  "## Recent errors",
];

/** The lines of `text` under a heading that presents items as current. */
export function currentLines(text: string): string[] {
  const out: string[] = [];
  let current = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("## ")) current = CURRENT_SECTIONS.some((s) => line.startsWith(s));
    else if (current) out.push(line);
  }
  return out;
}

export type FidelityScore = {
  /** Current facts that reached the target, overall and per kind (1 when a kind has none). */
  readonly recall: number;
  readonly recallByKind: Readonly<Partial<Record<FactKind, number>>>;
  /** Facts no longer current that a current section presents as current. */
  readonly supersededLeak: number;
  readonly missed: readonly PlantedFact[];
  readonly leaked: readonly PlantedFact[];
};

/**
 * Scores what the target received. `sent` is the text it was sent (the handoff as the fake model
 * recorded it), `retrieved` what its history-tool calls returned. A current fact counts when its
 * needle is in either; a superseded one leaks when a line of a current section of `sent` names it
 * without naming what replaced it and not as a removed diff line.
 */
export function scoreFidelity(
  facts: readonly PlantedFact[],
  sent: string,
  retrieved: readonly string[] = [],
): FidelityScore {
  const reached = [sent, ...retrieved].join("\n");
  const current = facts.filter((f) => f.current);
  const missed = current.filter((f) => !reached.includes(f.needle));
  const byKind: Partial<Record<FactKind, number>> = {};
  for (const kind of new Set(current.map((f) => f.kind))) {
    const of = current.filter((f) => f.kind === kind);
    byKind[kind] = of.filter((f) => !missed.includes(f)).length / of.length;
  }
  const lines = currentLines(sent);
  const leaked = facts.filter(
    (f) =>
      !f.current &&
      lines.some(
        (line) =>
          line.includes(f.needle) &&
          !f.replacedBy.some((r) => line.includes(r)) &&
          !line.trimStart().startsWith("-export") &&
          !/^\s*-[^ ]/.test(line),
      ),
  );
  return {
    recall: current.length === 0 ? 1 : (current.length - missed.length) / current.length,
    recallByKind: byKind,
    supersededLeak: leaked.length,
    missed,
    leaked,
  };
}

/** The ≤3 history-tool calls the bench's scripted model makes: generic, never the needles. */
export const SCRIPTED_HISTORY_CALLS = [
  { op: "files" },
  { op: "search", query: "decided going with use instead must never requirement prefer" },
  { op: "search", query: "todo still need remember forget error failed" },
] as const;
