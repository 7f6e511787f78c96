// Real-time repetition, for the process around the simulator (the command line's watch on its parent). The
// simulator's own time never uses it: it reads the Clock.

/** Calls `tick` every `ms` milliseconds of real time, without keeping the process alive; returns its stop. */
export function repeatEvery(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}
