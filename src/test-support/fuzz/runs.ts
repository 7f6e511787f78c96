// Fuzzing support: How many runs and which seed: bounded in the normal suite, FUZZ_RUNS / FUZZ_SEED for long or replayed runs.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import { repetitions } from "../quick.js";

// Run configuration: bounded in the normal suite, FUZZ_RUNS / FUZZ_SEED for long or replayed runs.

function envInteger(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text.trim() === "") return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not "${text}"`);
  return value;
}

/**
 * Runs of one property: `normal` in the normal suite, a fifth of it in the quick loop (npm run test:fast);
 * FUZZ_RUNS (times `share`, for costly properties) when set.
 */
export function fuzzRuns(normal: number, share = 1): number {
  const runs = envInteger("FUZZ_RUNS");
  if (runs !== undefined) return Math.max(1, Math.round(runs * share));
  return repetitions(normal, Math.max(1, Math.ceil(normal / 5)));
}

/** The property's fixed seed, or FUZZ_SEED when set (to replay a failure printed by another run). */
export function fuzzSeed(fixed: number): number {
  return envInteger("FUZZ_SEED") ?? fixed;
}

/** fast-check parameters: fixed seed, bounded runs; a failure prints the seed, the path and the shrunk counterexample. */
export function fuzzParameters<T>(normalRuns: number, seed: number, share = 1): fc.Parameters<T> {
  return { numRuns: fuzzRuns(normalRuns, share), seed: fuzzSeed(seed), verbose: fc.VerbosityLevel.None };
}

/** A vitest timeout that grows with the number of runs (FUZZ_RUNS=2000 takes longer than the normal suite). */
export function fuzzTimeout(normalRuns: number, msPerRun: number, share = 1): number {
  return 30_000 + fuzzRuns(normalRuns, share) * msPerRun;
}
