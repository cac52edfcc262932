// Small helpers for benchmark figures.
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

export function rate(count: number, ms: number): number {
  return Math.round((count * 1000) / ms);
}

export function progress(msg: string): void {
  process.stderr.write(`  … ${msg}\n`);
}
