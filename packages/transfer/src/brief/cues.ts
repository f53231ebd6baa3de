/**
 * What kind of statement a sentence is, by the cue words people use for it. A sentence can be of
 * several kinds ("Let's use Redis instead of Memcached" decides and reverses). The lists are
 * general English: goals, decisions, constraints, preferences, tasks, and words that close or
 * reverse something said earlier. docs/handoff-fidelity.md says what they do and do not catch.
 */

export type StatementKind = "goal" | "decision" | "constraint" | "preference" | "task";

const CUES: Record<StatementKind | "closure", readonly RegExp[]> = {
  goal: [
    /\b(?:the |our |my |main |overall |end |final )?(?:goal|aim|objective|mission|purpose)\b/,
    /\b(?:we(?:'re| are)|i(?:'m| am)) (?:building|making|writing|trying to|working towards?|after)\b/,
    /\bwhat (?:i|we) (?:want|need) (?:in the end )?is\b/,
    /\b(?:the point|end result|north star|the whole idea) (?:of this |here )?is\b/,
    /\bi want (?:us |you )?to (?:build|ship|get|have|end up)\b/,
  ],
  decision: [
    /\bdecid(?:e|ed|ing)\b|\bdecision\b/,
    /\blet'?s (?:go with|use|pick|keep|switch|stick|standardi[sz]e|adopt|move)\b/,
    /\bwe(?:'ll| will| are going to|'re going to| should) (?:use|go with|keep|switch|stick|adopt|standardi[sz]e|move)\b/,
    /\b(?:go(?:ing)? with|settled? on|chose|choose|opt(?:ed|ing)? for|stick(?:ing)? with|picked|agreed on|we agreed)\b/,
    /\b(?:use|switch to|move to) \S+ (?:instead|from now on|going forward)\b/,
  ],
  constraint: [
    /\bmust(?:n'?t| not| never| always| stay| be| keep)?\b/,
    /\b(?:never|under no circumstances|not allowed|forbidden|non-negotiable|hard limit|hard requirement)\b/,
    /\b(?:cannot|can'?t|may not) (?:use|touch|change|add|break|exceed|depend|ship|go|call|store|send|log|drop|remove)\b/,
    /\b(?:has|have|needs?) to (?:stay|be|remain|keep|work|run|support)\b/,
    /\b(?:no more than|at most|at least|within|under|below) \S*\d/,
    /\b(?:requirement|required|constraint|compliance|the customer (?:needs|requires|insists|wants|said))\b/,
    /\bdon'?t (?:ever )?(?:use|touch|change|add|break|remove|rename|call|store|send|log)\b/,
    /\b(?:only|always) (?:use|allow|run|target|support|ship|store|send)\b/,
  ],
  preference: [
    /\b(?:i|we)(?: prefer|'d prefer| would prefer|'d rather| would rather| like| love| hate| dislike)\b/,
    /\bprefer(?:ably|red|ence)?\b/,
    /\bplease (?:always|keep|stick|avoid|use|write|name|format)\b/,
    /\b(?:style|naming|convention|formatting|tone)\b.*\b(?:should|please|prefer|always|keep)\b/,
  ],
  task: [
    /\b(?:todo|to-do|to do:|task:|action item|follow[- ]?up)\b/,
    /\b(?:still|also) (?:need|have|got) to\b/,
    /\b(?:remember|don'?t forget|make sure) to\b/,
    /\b(?:next|later|afterwards|at some point|before (?:we|the) (?:ship|release|merge|launch))\b.*\b(?:need|should|must|have to|will)\b/,
    /\b(?:we|you|someone) (?:need|needs|should|will have) to\b/,
    /\badd (?:a |an |the )?(?:task|ticket|item|note) (?:to|for|about)\b/,
    /\bopen (?:task|item|question)\b/,
  ],
  closure: [
    /\b(?:no longer|not anymore|any ?more)\b/,
    // "Don't forget to …" asks for something; it closes nothing.
    /(?<!\b(?:don'?t|do not|never|not) )\b(?:scratch|forget|drop|cancel|ditch|abandon|undo|revert|reverse|overrule|withdraw)(?:s|ed|ing)?\b/,
    /\b(?:instead|rather than|in place of|replac(?:e|es|ed|ing))\b/,
    /\bchanged? (?:my|our) minds?\b|\bon second thought\b|\bactually,?\s/,
    /\b(?:is|are|was|were|it'?s|that'?s|now) (?:done|finished|complete|completed|closed|resolved|fixed|shipped|merged|handled|obsolete|moot|irrelevant)\b/,
    /\b(?:done|finished|completed|closed|resolved|fixed|shipped|merged) (?:the|that|this|with)\b/,
    /\b(?:doesn'?t|does not|won'?t|will not|no need to|needn'?t) (?:apply|matter|hold|need)\b|\bno need (?:to|for)\b/,
    /\b(?:lift(?:ed)?|relax(?:ed)?|waive[sd]?|remove[sd]?) (?:the|that|this) (?:constraint|requirement|limit|rule)\b/,
  ],
};

/** Words the cues themselves use: they say what kind a statement is, not what it is about. */
export const CUE_WORDS: ReadonlySet<string> = new Set(
  (
    "goal aim objective mission purpose building making writing trying working toward towards " +
    "decide decided deciding decision go going pick picked choose chose opt opted stick settle " +
    "settled agreed adopt standardize standardise switch move must never always forbidden allowed " +
    "requirement required constraint prefer preferred preference rather love hate dislike style " +
    "todo task follow followup remember forget need needs still later next scratch drop cancel " +
    "ditch abandon undo revert reverse overrule withdraw instead replace replaced replacing done " +
    "finished complete completed closed resolved fixed shipped merged handled obsolete moot mind " +
    "second thought apply matter hold customer said insists requires wants lift lifted relax " +
    "relaxed waive waived remove removed rule limit sure make point idea whole"
  ).split(" "),
);

/** One alternation per kind: a 4,000-run history has tens of thousands of sentences to test. */
const COMBINED = Object.fromEntries(
  Object.entries(CUES).map(([kind, cues]) => [
    kind,
    new RegExp(cues.map((cue) => `(?:${cue.source})`).join("|")),
  ]),
) as Record<StatementKind | "closure", RegExp>;

const KINDS: readonly StatementKind[] = ["goal", "decision", "constraint", "preference", "task"];

export function kindsOf(sentence: string): Set<StatementKind> {
  const lower = sentence.toLowerCase();
  const kinds = new Set<StatementKind>();
  for (const kind of KINDS) if (COMBINED[kind].test(lower)) kinds.add(kind);
  return kinds;
}

/** The sentence closes, reverses or replaces something said before. */
export function closes(sentence: string): boolean {
  return COMBINED.closure.test(sentence.toLowerCase());
}

/** Questions ask; they state nothing in force. */
export function isQuestion(sentence: string): boolean {
  return /\?\s*$/.test(sentence);
}
