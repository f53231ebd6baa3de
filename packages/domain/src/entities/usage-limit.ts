import { z } from "zod";
import { RunId } from "../ids.ts";
import { IsoTimestamp, ProviderKind } from "./common.ts";

/**
 * Issue 32 item 4: what a thread does when its provider's usage limit fails a run (after Skein's
 * own retries): `wait` resumes the run by itself when the limit resets, `switch` leaves it failed
 * and offers another ready provider, `stop` leaves it failed. Absent on a thread: `wait`.
 */
export const OnUsageLimit = z.enum(["stop", "wait", "switch"]);
export type OnUsageLimit = z.infer<typeof OnUsageLimit>;
export const DEFAULT_ON_USAGE_LIMIT: OnUsageLimit = "wait";

/**
 * A run failed at a usage limit, as its adapter read it: `retryAfterMs` when the provider said
 * how long to wait (the reset is then the command's time plus that), absent when it did not.
 */
export const UsageLimitHit = z.object({
  retryAfterMs: z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 3_600_000)
    .optional(),
});
export type UsageLimitHit = z.infer<typeof UsageLimitHit>;

/**
 * The thread's latest usage limit. It `stands` (the thread's queue is held, nothing else starts)
 * until the run is queued again (`resumedAt`); it is forgotten once a run completes.
 * `automaticResumes` counts Skein's resumes since the last completed run, so a limit that keeps
 * coming back stops being resumed after a few (no loop).
 */
export const ThreadUsageLimit = z.object({
  runId: RunId,
  provider: ProviderKind,
  /** When the provider said the limit resets; null: it did not say. */
  resetsAt: IsoTimestamp.nullable(),
  reachedAt: IsoTimestamp,
  resumedAt: IsoTimestamp.nullable(),
  automaticResumes: z.number().int().min(0),
});
export type ThreadUsageLimit = z.infer<typeof ThreadUsageLimit>;

/** The limit holds the thread's queue: reached and not resumed yet. */
export function usageLimitStands(limit: ThreadUsageLimit | null | undefined): boolean {
  return !!limit && limit.resumedAt === null;
}

/** How long Skein waits on a limit whose provider named no reset (a setting of the server). */
export const DEFAULT_USAGE_LIMIT_WAIT_MS = 15 * 60_000;
/** Skein's resumes in a row (no run completing between them) before it leaves it to the person. */
export const MAX_AUTOMATIC_RESUMES = 3;

export type UsageLimitPlan =
  /** No limit holds the thread. */
  | { kind: "none" }
  /** The limit holds the thread until the person acts: their setting, or too many resumes. */
  | { kind: "held"; why: "stop" | "switch" | "resumed_enough" }
  /** Skein queues the run again by itself at `at`. */
  | { kind: "resume"; at: string };

/**
 * Issue 32: what becomes of a thread's usage limit. With `wait`, the run resumes when the limit
 * resets, or a bounded default wait after it was reached when the provider named no reset; after
 * `maxResumes` resumes in a row it is left to the person, so a limit that keeps coming back
 * cannot loop.
 */
export function usageLimitPlan(
  thread: {
    onUsageLimit?: OnUsageLimit | undefined;
    usageLimit?: ThreadUsageLimit | null | undefined;
  },
  options: { defaultWaitMs?: number; maxResumes?: number } = {},
): UsageLimitPlan {
  const limit = thread.usageLimit;
  if (!limit || !usageLimitStands(limit)) return { kind: "none" };
  const setting = thread.onUsageLimit ?? DEFAULT_ON_USAGE_LIMIT;
  if (setting !== "wait") return { kind: "held", why: setting };
  if (limit.automaticResumes >= (options.maxResumes ?? MAX_AUTOMATIC_RESUMES)) {
    return { kind: "held", why: "resumed_enough" };
  }
  const waitMs = options.defaultWaitMs ?? DEFAULT_USAGE_LIMIT_WAIT_MS;
  const at = limit.resetsAt ?? new Date(Date.parse(limit.reachedAt) + waitMs).toISOString();
  return { kind: "resume", at };
}
