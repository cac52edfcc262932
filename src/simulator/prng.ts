// A small seeded PRNG (mulberry32) and the few distributions the simulator
// needs. Every random choice of the simulator goes through one of these, each
// stream seeded from (run seed, purpose, key), so a result depends only on
// the seed and on what is simulated, never on network timing or call order
// across readers.

export type Rng = () => number; // uniform in [0, 1)

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the parts: a stable 32-bit seed for one purpose of one run. */
export function seedOf(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = `${String(part)}\u0000`;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return h >>> 0;
}

export const rngFor = (...parts: ReadonlyArray<string | number>): Rng => mulberry32(seedOf(...parts));

/** Standard normal by Box-Muller. */
export function gaussian(rng: Rng, mean = 0, sd = 1): number {
  const u = Math.max(rng(), Number.EPSILON);
  const v = rng();
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function exponential(rng: Rng, mean: number): number {
  return -mean * Math.log(1 - rng());
}

export function intBelow(rng: Rng, n: number): number {
  return Math.min(n - 1, Math.floor(rng() * n));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[intBelow(rng, items.length)] as T;
}

export function hex(rng: Rng, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i++) out += intBelow(rng, 16).toString(16).toUpperCase();
  return out;
}
