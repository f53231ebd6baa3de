import { z } from "zod";

/**
 * Text a person sends (B4): well-formed Unicode, checked before anything is appended or sent.
 * A lone UTF-16 surrogate survives JSON parsing but not UTF-8 encoding; a provider handed one
 * never answers (Codex's `turn/start` hangs), so it is refused at the edge with the position.
 */

// With the `u` flag a proper surrogate pair is one code point, so only a lone half matches.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Why `text` is not well-formed Unicode, in words, or null when it is. */
export function textProblem(text: string): string | null {
  const match = LONE_SURROGATE.exec(text);
  if (match === null) return null;
  const unit = match[0].charCodeAt(0).toString(16).toUpperCase();
  return (
    `contains a broken character (a lone UTF-16 surrogate U+${unit} at position ${match.index}); ` +
    "send well-formed Unicode text"
  );
}

/** Why `text` cannot be a name (a title, a path): broken Unicode or a NUL character. */
export function nameProblem(text: string): string | null {
  const nul = text.indexOf("\0");
  if (nul !== -1) return `must not contain a NUL character (found at position ${nul})`;
  return textProblem(text);
}

function refineWith(problem: (text: string) => string | null) {
  return (text: string, ctx: z.RefinementCtx) => {
    const message = problem(text);
    if (message !== null) ctx.addIssue({ code: "custom", message });
  };
}

/** Any text from a person: well-formed Unicode (may be empty). */
export const WellFormedText = z.string().superRefine(refineWith(textProblem));

/** A message, a steer, a handoff written by hand: non-empty, well-formed Unicode. */
export const UserText = z.string().min(1, "must not be empty").superRefine(refineWith(textProblem));

/** A short name (project, thread, model): trimmed, 1–200 characters, no NUL, well-formed. */
export const NameText = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .superRefine(refineWith(nameProblem));

/** A path, branch or model name: non-empty, no NUL, well-formed (not trimmed: spaces may count). */
export const PathText = z.string().min(1).superRefine(refineWith(nameProblem));

/** Answers to a user_input request, by question id: the person's text, well-formed. */
export const AnswersInput = z.record(
  z.string().min(1).superRefine(refineWith(nameProblem)),
  z.union([WellFormedText, z.array(WellFormedText)]),
);
