import { isProviderId } from "@skein/domain/provider";
import type { ProviderKind, ThreadDetail } from "./types.ts";

export type ComposerChoice = { provider: ProviderKind; model: string };

const NOT_COUNTING = new Set(["cancelled", "rolled_back"]);

/**
 * The provider and model the thread is on now: its latest run that counts, else (a fork before
 * its first message) the provider of the last inherited item, else the thread's defaults. A
 * composer that starts here never switches providers by accident.
 */
export function currentChoice(detail: ThreadDetail): ComposerChoice {
  const { thread } = detail;
  const latest = detail.runs
    .filter((run) => !NOT_COUNTING.has(run.status))
    .reduce<ThreadDetail["runs"][number] | null>(
      (best, run) => (best === null || run.ordinal > best.ordinal ? run : best),
      null,
    );
  if (latest) return { provider: latest.provider, model: latest.model ?? "" };
  const inherited = (detail.visibleTurnItems ?? detail.turnItems).findLast(
    (item) => item.provider !== null,
  )?.provider;
  if (inherited && inherited !== thread.defaultProvider) return { provider: inherited, model: "" };
  return { provider: thread.defaultProvider, model: thread.modelSelection.model ?? "" };
}

/** An unsent pick in the composer, kept per thread in this browser (reloads, new forks). */
const KEY = (threadId: string) => `skein.composer.${threadId}`;

export function loadChoice(threadId: string): ComposerChoice | null {
  try {
    const raw = globalThis.localStorage?.getItem(KEY(threadId));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<ComposerChoice>;
    if (!isProviderId(value.provider) || typeof value.model !== "string") return null;
    return { provider: value.provider, model: value.model.slice(0, 200) };
  } catch {
    return null;
  }
}

export function saveChoice(threadId: string, choice: ComposerChoice | null): void {
  try {
    if (choice === null) globalThis.localStorage?.removeItem(KEY(threadId));
    else globalThis.localStorage?.setItem(KEY(threadId), JSON.stringify(choice));
  } catch {
    // Storage full or blocked: the pick lives until the page closes, which is still correct.
  }
}

/** A new fork starts from its source's unsent pick, if the person had made one. */
export function copyChoice(fromThreadId: string, toThreadId: string): void {
  const choice = loadChoice(fromThreadId);
  if (choice) saveChoice(toThreadId, choice);
}

/**
 * Whether two details give the thread header and the composer the same inputs (the shell, the
 * runs, the current choice). A streamed delta changes only items, and neither needs to render
 * again for it.
 */
export function sameChoiceInputs(a: ThreadDetail, b: ThreadDetail): boolean {
  if (a.thread !== b.thread || a.runs !== b.runs) return false;
  const left = currentChoice(a);
  const right = currentChoice(b);
  return left.provider === right.provider && left.model === right.model;
}
