/**
 * Sentence splitting and salient-word extraction for the brief. Deliberately plain: statements
 * are matched by what they say (cue words, shared subject words), never by an exact phrasing.
 */

const STOPWORDS = new Set(
  (
    "a an the and or but if then than so to of in on at by for with from into onto as is are was " +
    "were be been being it its this that these those there here we our us you your i me my he she " +
    "they them their his her do does did done not no yes all any some each every both more most " +
    "less least very just also too only own same such can could should would will shall may might " +
    "must have has had having about above after again against before below between during out over " +
    "under up down off once until while what which who whom why how when where let lets let's it's " +
    "i'm we're we'll you're don't doesn't didn't isn't aren't wasn't won't can't cannot still now " +
    "please ok okay actually really thing things stuff way one ones get got make made use used using " +
    "go going keep kept need needs want wants like think sure instead anymore longer rather"
  ).split(" "),
);

/** Splits text into sentences (also on newlines and list bullets), trimmed, non-empty. */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const cleaned = line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "").trim();
    if (cleaned.length === 0) continue;
    // A sentence ends at . ! ? ; followed by a space and a capital, a quote or a digit.
    for (const part of cleaned.split(/(?<=[.!?;])\s+(?=["'(A-Z0-9`])/)) {
      const sentence = part.trim();
      if (sentence.length > 0) out.push(sentence);
    }
  }
  return out;
}

/** Lower-cased words of a sentence, apostrophes kept, code-ish tokens (a.b, x-y, x_y) whole. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9][a-z0-9_.'/-]*[a-z0-9]|[a-z0-9]/g) ?? [];
}

/** A crude stem so "migrations"/"migration", "cached"/"cache" meet. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("es")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The words that name a statement's subject: no stopwords, no cue words, stemmed. */
export function salientWords(text: string, cueWords: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const word of wordsOf(text)) {
    // Plain string checks: this runs for every sentence of a 4,000-run history.
    const apostrophe = word.indexOf("'");
    if (apostrophe >= 0 && !word.endsWith("'s")) continue; // i've, that's → "that", we'd …
    let bare = apostrophe >= 0 ? word.slice(0, apostrophe) : word;
    while (bare.length > 0 && ".'/-".includes(bare[bare.length - 1] ?? ""))
      bare = bare.slice(0, -1);
    if (bare.length < 3 || STOPWORDS.has(bare) || cueWords.has(bare)) continue;
    if (isDigits(bare)) continue;
    out.add(stem(bare));
  }
  return out;
}

function isDigits(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared;
}
