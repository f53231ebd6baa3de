import type { ThreadDetail } from "./types.ts";

/**
 * B7: a window of older runs joins the pages already shown only if it is the one right above
 * them: asked with the cursor that the oldest page shown (or, with none, the live window) gives
 * now. A scroll between an answer and the render that moves that cursor on asks for the same
 * window again; its answer, or one made stale by a newer live window, is dropped, never shown twice.
 */
export function withOlderWindow(
  pages: readonly ThreadDetail[],
  page: ThreadDetail,
  askedBefore: string,
  liveBefore: string | null,
): readonly ThreadDetail[] {
  const expected = pages.length > 0 ? pages[0]!.window.before : liveBefore;
  return expected === askedBefore ? [page, ...pages] : pages;
}
