import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type AncestorWatch,
  ancestorsOf,
  goneAncestor,
  PARENT_CHECK_MS,
  type ProcessInfo,
  parsePs,
  parseStat,
  platformWatch,
  type ReadProcesses,
  readPs,
  recordAncestry,
  watchAncestors,
} from "./lifeline.js";

// docs/interfaces.md, Command line (Stopping it): --exit-with-parent records the chain of the server's ancestors at
// start (each pid with its start time, pid 1 left out) and stops once one of them is gone, a zombie, or its pid
// another process's. The chain logic with a process table of its own; the readers on this machine's processes.

afterEach(() => {
  vi.useRealTimers();
});

/** A process table: pid -> what a reader says of it; a reader that answers from it. */
function table(entries: Record<number, Partial<ProcessInfo> & { ppid: number }>) {
  const procs = new Map<number, ProcessInfo>(
    Object.entries(entries).map(([pid, p]) => [Number(pid), { start: `t${pid}`, zombie: false, ...p }]),
  );
  const read: ReadProcesses = (pids) =>
    new Map(pids.flatMap((pid) => (procs.has(pid) ? [[pid, procs.get(pid)!]] : [])));
  return { procs, read };
}

describe("the ancestor chain", () => {
  // server -> sh -c (npm's) -> npm exec -> the CI shell -> the runner -> init
  const ci = { 30: { ppid: 20 }, 20: { ppid: 10 }, 10: { ppid: 5 }, 5: { ppid: 1 }, 1: { ppid: 0 } };

  it("runs from the parent up to, not including, pid 1, each ancestor with its start time", () => {
    expect(ancestorsOf(30, table(ci).read)).toEqual([
      { pid: 30, start: "t30" },
      { pid: 20, start: "t20" },
      { pid: 10, start: "t10" },
      { pid: 5, start: "t5" },
    ]);
  });

  it("ends at the first ancestor it cannot read, at pid 0 (a parent outside the pid namespace), and never loops", () => {
    expect(ancestorsOf(30, table({ 30: { ppid: 20 } }).read)).toEqual([{ pid: 30, start: "t30" }]);
    expect(ancestorsOf(30, table({ 30: { ppid: 0 } }).read)).toEqual([{ pid: 30, start: "t30" }]);
    expect(ancestorsOf(30, table({ 30: { ppid: 20 }, 20: { ppid: 30 } }).read).map((a) => a.pid)).toEqual([30, 20]);
    expect(ancestorsOf(1, table(ci).read)).toEqual([]);
    expect(ancestorsOf(30, () => undefined)).toEqual([]);
  });

  it("none is gone while every ancestor is there with its start time", () => {
    const { read } = table(ci);
    expect(goneAncestor(ancestorsOf(30, read), read)).toBe(undefined);
  });

  it("an ancestor that exited (the CI shell, even one killed by SIGKILL) is gone", () => {
    const { procs, read } = table(ci);
    const chain = ancestorsOf(30, read);
    procs.delete(10);
    expect(goneAncestor(chain, read)).toEqual({ pid: 10, start: "t10" });
  });

  it("an ancestor that is a zombie (exited, not yet reaped) is gone", () => {
    const { procs, read } = table(ci);
    const chain = ancestorsOf(30, read);
    procs.set(10, { ppid: 5, start: "t10", zombie: true });
    expect(goneAncestor(chain, read)).toEqual({ pid: 10, start: "t10" });
  });

  it("an ancestor whose pid now names another process (a later start time) is gone", () => {
    const { procs, read } = table(ci);
    const chain = ancestorsOf(30, read);
    procs.set(5, { ppid: 1, start: "later", zombie: false });
    expect(goneAncestor(chain, read)).toEqual({ pid: 5, start: "t5" });
  });

  it("a check that cannot read the processes this time finds none gone; an empty chain never does", () => {
    const { read } = table(ci);
    expect(goneAncestor(ancestorsOf(30, read), () => undefined)).toBe(undefined);
    expect(goneAncestor([], () => new Map())).toBe(undefined);
  });
});

describe("watchAncestors: a check every PARENT_CHECK_MS", () => {
  it("calls back at the first check after an ancestor is gone, and never while they are all there", () => {
    vi.useFakeTimers();
    const { procs, read } = table({ [process.ppid]: { ppid: 40 }, 40: { ppid: 1 } });
    const watch: AncestorWatch = { read, everyMs: PARENT_CHECK_MS };
    let calls = 0;
    const cancel = watchAncestors(() => calls++, recordAncestry(watch));
    vi.advanceTimersByTime(PARENT_CHECK_MS * 10);
    expect(calls).toBe(0);
    procs.delete(40);
    vi.advanceTimersByTime(PARENT_CHECK_MS);
    expect(calls).toBe(1);
    cancel();
    vi.advanceTimersByTime(PARENT_CHECK_MS * 10);
    expect(calls).toBe(1);
  });
  it("an ancestor gone between the record and the watch (while the fixture builds) is caught at the first check", () => {
    vi.useFakeTimers();
    const { procs, read } = table({ [process.ppid]: { ppid: 40 }, 40: { ppid: 1 } });
    const ancestry = recordAncestry({ read, everyMs: PARENT_CHECK_MS });
    procs.delete(process.ppid);
    let calls = 0;
    const cancel = watchAncestors(() => calls++, ancestry);
    vi.advanceTimersByTime(PARENT_CHECK_MS - 1);
    expect(calls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls).toBe(1);
    cancel();
  });

  it("a parent other than the recorded one (this process was adopted) is caught, with no ancestor to read", () => {
    vi.useFakeTimers();
    let calls = 0;
    const cancel = watchAncestors(() => calls++, {
      parent: process.ppid + 1,
      chain: [],
      watch: { read: () => undefined, everyMs: PARENT_CHECK_MS },
    });
    vi.advanceTimersByTime(PARENT_CHECK_MS - 1);
    expect(calls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls).toBe(1);
    cancel();
  });
});

describe("the readers", () => {
  it("parseStat takes the state, the parent and the start time, whatever the command name holds", () => {
    // pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime priority nice
    // num_threads itrealvalue starttime vsize ... (proc(5)), as a Linux node process has them
    const tail = "4200 4100 0 -1 4194560 2500 0 0 0 10 4 0 0 20 0 7 0 987654 1183744 12000";
    expect(parseStat(`4242 (node) S 4200 ${tail}`)).toEqual({ ppid: 4200, start: "987654", zombie: false });
    expect(parseStat(`4242 (a b) (c) Z 4200 ${tail}`)).toEqual({ ppid: 4200, start: "987654", zombie: true });
    expect(parseStat("4242 (node) S")).toBe(undefined);
  });

  it("parsePs reads ps's pid, ppid, stat and lstart columns (Linux and macOS)", () => {
    const text = "  812     1 Ss   Sat Nov 28 09:53:01 2026\n 4242   812 Z+   Mon Jan  5 10:00:00 2026\n\n";
    expect(parsePs(text)).toEqual(
      new Map([
        [812, { ppid: 1, start: "Sat Nov 28 09:53:01 2026", zombie: false }],
        [4242, { ppid: 812, start: "Mon Jan  5 10:00:00 2026", zombie: true }],
      ]),
    );
  });

  it("this platform's reader finds this process's parent chain, and its start times do not change", () => {
    const { read } = platformWatch();
    const chain = ancestorsOf(process.ppid, read);
    expect(chain[0]?.pid).toBe(process.ppid);
    expect(chain.map((a) => a.pid)).not.toContain(1);
    expect(goneAncestor(chain, read)).toBe(undefined);
  });

  it("this platform's reader leaves out a pid that is not there; ps (macOS, other Unix) says the same parent", () => {
    const missing = 2 ** 22 + 1; // above Linux's largest pid (2^22) and macOS's (99998)
    const here = platformWatch().read([process.pid, missing])!;
    const ps = readPs([process.pid, missing])!;
    expect([...here.keys()]).toEqual([process.pid]);
    expect([...ps.keys()]).toEqual([process.pid]);
    expect(here.get(process.pid)!.ppid).toBe(process.ppid);
    expect(ps.get(process.pid)!.ppid).toBe(process.ppid);
    expect(ps.get(process.pid)!.zombie).toBe(false);
  });
});
