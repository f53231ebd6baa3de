export const DEFAULT_MAX_TOKENS = 16_000;
export const DEFAULT_CHARS_PER_TOKEN = 4;
/** Below this even the coverage preamble of a busy thread might not fit. */
export const MIN_MAX_TOKENS = 512;

export type TokenBudget = {
  /** Upper bound for the handoff text (the new user message comes on top, uncut). */
  readonly maxTokens?: number;
  /** Characters per estimated token; the estimate is ceil(length / charsPerToken). */
  readonly charsPerToken?: number;
};

export type ResolvedBudget = { readonly maxTokens: number; readonly charsPerToken: number };

export function resolveBudget(budget: TokenBudget | undefined): ResolvedBudget {
  const maxTokens = budget?.maxTokens ?? DEFAULT_MAX_TOKENS;
  const charsPerToken = budget?.charsPerToken ?? DEFAULT_CHARS_PER_TOKEN;
  if (!Number.isInteger(maxTokens) || maxTokens < MIN_MAX_TOKENS) {
    throw new RangeError(`maxTokens must be an integer >= ${MIN_MAX_TOKENS}, got ${maxTokens}`);
  }
  if (!(charsPerToken > 0) || !Number.isFinite(charsPerToken)) {
    throw new RangeError(`charsPerToken must be a positive number, got ${charsPerToken}`);
  }
  return { maxTokens, charsPerToken };
}

/**
 * Deterministic and subadditive (the estimate of a concatenation never exceeds the sum of the
 * parts' estimates), so summing per-line estimates is a safe upper bound while selecting.
 */
export function estimateTokens(text: string, charsPerToken = DEFAULT_CHARS_PER_TOKEN): number {
  return Math.ceil(text.length / charsPerToken);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Cut index that does not split a surrogate pair. */
function safeCut(text: string, index: number): number {
  return index > 0 && isHighSurrogate(text.charCodeAt(index - 1)) ? index - 1 : index;
}

/**
 * Keeps the head and the tail (a reply's conclusion is usually at its end) within `maxChars`,
 * marking the cut. Returns null when not even the marker fits.
 */
export function truncateMiddle(text: string, maxChars: number): string | null {
  if (text.length <= maxChars) return text;
  const marker = (omitted: number): string => ` … [${omitted} chars omitted] … `;
  const room = maxChars - marker(text.length).length;
  if (room < 16) return null;
  const headEnd = safeCut(text, Math.floor(room * 0.6));
  const tailLength = room - headEnd;
  const tailStart = text.length - tailLength;
  const tail = isHighSurrogateAt(text, tailStart - 1)
    ? text.slice(tailStart + 1)
    : text.slice(tailStart);
  const omitted = text.length - headEnd - tail.length;
  return `${text.slice(0, headEnd)}${marker(omitted)}${tail}`;
}

function isHighSurrogateAt(text: string, index: number): boolean {
  return index >= 0 && isHighSurrogate(text.charCodeAt(index));
}
