import type { ProviderKind, TokenUsage } from "@skein/domain";

/** One provider's recorded usage on one thread on one UTC day (B20's usage view). */
export type UsageRow = {
  provider: ProviderKind;
  /** YYYY-MM-DD, UTC, of the run's end (its request while it has not ended). */
  day: string;
  threadId: string;
  threadTitle: string;
  runs: number;
  usage: TokenUsage;
};

/** Usage by provider, thread and day over the last `days` days, newest day first. */
export type UsageSummary = {
  since: string;
  rows: UsageRow[];
  /** Each provider's sum over the rows. */
  totals: Array<{ provider: ProviderKind; runs: number; usage: TokenUsage }>;
};
