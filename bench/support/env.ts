// Benchmark knobs come from BENCH_* environment variables; a typo must stop
// the run rather than silently measure something else.
export function positiveEnv(name: string, dflt: number): number {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
}
