/** One row of bench/results.json. */
export type BenchRow = {
  name: string;
  value: number;
  unit: string;
  target: string;
  pass: boolean;
};

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError("no samples");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
