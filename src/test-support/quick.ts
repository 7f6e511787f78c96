// The quick loop: `npm run test:fast` sets TEST_QUICK=1, and a test that repeats one check (over seeds,
// runs or repetitions) repeats it fewer times; `npm test` (CI) leaves it unset and runs every repetition.
// The one place the switch is read.

/** True under `npm run test:fast` (TEST_QUICK=1). */
export const QUICK = process.env.TEST_QUICK === "1";

/** `full` in `npm test`, `quick` in `npm run test:fast`. */
export function repetitions<T>(full: T, quick: T): T {
  return QUICK ? quick : full;
}
