import type { Run } from "./types.ts";

export type Usage = NonNullable<Run["usage"]>;

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });
// One formatter for every run header's tooltip: `toLocaleString` would build one per call.
const whole = new Intl.NumberFormat("en");

/** "1.2K tokens · $0.0123": input + output tokens, and the cost when the provider reported one. */
export function usageLabel(usage: Usage | null | undefined): string | null {
  if (!usage) return null;
  const tokens = `${compact.format(usage.inputTokens + usage.outputTokens)} tokens`;
  return usage.costUsd === undefined ? tokens : `${tokens} · ${costText(usage.costUsd)}`;
}

/** The breakdown for a tooltip, one figure per line, leaving out what was not reported. */
export function usageDetail(usage: Usage): string {
  const lines = [
    `input ${whole.format(usage.inputTokens)}`,
    usage.cachedInputTokens !== undefined
      ? `cached input ${whole.format(usage.cachedInputTokens)}`
      : null,
    `output ${whole.format(usage.outputTokens)}`,
    usage.reasoningTokens !== undefined ? `reasoning ${whole.format(usage.reasoningTokens)}` : null,
    usage.costUsd !== undefined
      ? `cost ${costText(usage.costUsd)} (as the provider reports it)`
      : null,
  ];
  return lines.filter((line) => line !== null).join("\n");
}

/** Small costs keep two significant digits ($0.0042); a cent or more shows cents. */
function costText(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(2)}`;
}
