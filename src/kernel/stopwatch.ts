/** Milliseconds on a monotonic real-time clock, for measuring how long something took (never for the simulated time). */
export const stopwatch = (): number => performance.now();
