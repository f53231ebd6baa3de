/** A turn's token usage, as Skein's `usage` event carries it. */
export type TurnUsage = {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/**
 * The usage a `session/prompt` response reports: the protocol's `usage` field where the agent
 * fills it, else Gemini CLI's `_meta.quota.token_count`; null when it reports none.
 */
export function usageOfPromptResponse(response: unknown): TurnUsage | null {
  if (!isRecord(response)) return null;
  const usage = response.usage;
  if (isRecord(usage)) {
    const input = num(usage.inputTokens);
    const output = num(usage.outputTokens);
    if (input !== undefined && output !== undefined) {
      const out: TurnUsage = { inputTokens: input, outputTokens: output };
      const cached = num(usage.cachedReadTokens);
      const thoughts = num(usage.thoughtTokens);
      if (cached !== undefined) out.cachedInputTokens = cached;
      if (thoughts !== undefined) out.reasoningTokens = thoughts;
      return out;
    }
  }
  const meta = response._meta;
  const quota = isRecord(meta) ? meta.quota : undefined;
  const count = isRecord(quota) ? quota.token_count : undefined;
  if (isRecord(count)) {
    const input = num(count.input_tokens);
    const output = num(count.output_tokens);
    if (input !== undefined && output !== undefined)
      return { inputTokens: input, outputTokens: output };
  }
  return null;
}
