import { z } from "zod";
import { ProviderKind, ReasoningEffort } from "../entities/common.ts";
import type { ThreadId } from "../ids.ts";

/** B9: how many forks one message may fan out to. */
export const MAX_FAN_OUT = 8;

/** One fork of a fan-out: the provider it runs on and, optionally, its model and effort. */
export const FanOutTarget = z.object({
  provider: ProviderKind,
  model: z.string().trim().min(1).max(200).nullable().optional(),
  /** Reasoning effort of the fork's run (the model's levels: `provider.models`). */
  effort: ReasoningEffort.nullable().optional(),
});
export type FanOutTarget = z.infer<typeof FanOutTarget>;

export const FanOutTargets = z.array(FanOutTarget).min(1).max(MAX_FAN_OUT);

export type ForkFiles = { threadId: ThreadId; files: readonly string[] };
/** A file that two or more live forks changed: bringing both back would touch it twice. */
export type OverlapWarning = { path: string; threadIds: ThreadId[] };

/**
 * B9 overlap warnings: every path changed by at least two of the given forks, with the forks
 * that changed it in the order given. Pure: callers pass only the forks that are still live.
 */
export function overlapWarnings(forks: readonly ForkFiles[]): OverlapWarning[] {
  const byPath = new Map<string, ThreadId[]>();
  for (const fork of forks) {
    for (const path of new Set(fork.files)) {
      const list = byPath.get(path) ?? [];
      list.push(fork.threadId);
      byPath.set(path, list);
    }
  }
  return [...byPath.entries()]
    .filter(([, threadIds]) => threadIds.length > 1)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, threadIds]) => ({ path, threadIds }));
}
