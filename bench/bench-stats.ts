/** Percentile of a sample (nearest-rank), in the sample's unit. */
export function percentile(sample: readonly number[], p: number): number {
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function summarise(sample: readonly number[]) {
  return {
    n: sample.length,
    p50: round(percentile(sample, 50)),
    p90: round(percentile(sample, 90)),
    p99: round(percentile(sample, 99)),
    mean: round(sample.reduce((sum, value) => sum + value, 0) / sample.length),
  };
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
