"use client";
import type { ThreadDetail } from "../../lib/types.ts";

const whole = new Intl.NumberFormat("en");

/**
 * Issue 29: how full the model's context window is, from the usage the latest run recorded (the
 * runtime's own reading at its last model response). Nothing is shown when no run reported it
 * (a provider that does not say, or no run yet): an empty meter would claim a figure.
 */
export function ContextMeter({ runs }: { runs: ThreadDetail["runs"] }) {
  const latest = runs.reduce<ThreadDetail["runs"][number] | null>(
    (best, run) =>
      run.usage?.contextTokens !== undefined &&
      run.usage.contextWindow !== undefined &&
      (best === null || run.ordinal > best.ordinal)
        ? run
        : best,
    null,
  );
  const used = latest?.usage?.contextTokens;
  const size = latest?.usage?.contextWindow;
  if (used === undefined || size === undefined) return null;
  const percent = Math.min(100, Math.round((used / size) * 100));
  // A few tokens in a large window round to 0, which would read as empty.
  const shown = percent === 0 && used > 0 ? "<1" : String(percent);
  return (
    <span
      className="context-meter muted"
      title={`${whole.format(used)} of ${whole.format(size)} tokens of the context window in use after the latest run`}
    >
      <meter aria-label="Context window used" min={0} max={size} value={used} /> {shown}% context
    </span>
  );
}
