import { afterEach, describe, expect, it, vi } from "vitest";
import { repeatEvery } from "./repeat.js";

// docs/interfaces.md, Command line (--exit-with-parent): the parent is looked for on a repeating real-time timer.

afterEach(() => {
  vi.useRealTimers();
});

describe("repeatEvery", () => {
  it("ticks once per period until stopped, and never again after", () => {
    vi.useFakeTimers();
    let ticks = 0;
    const stop = repeatEvery(250, () => ticks++);
    vi.advanceTimersByTime(249);
    expect(ticks).toBe(0);
    vi.advanceTimersByTime(501);
    expect(ticks).toBe(3);
    stop();
    vi.advanceTimersByTime(10_000);
    expect(ticks).toBe(3);
  });
});
