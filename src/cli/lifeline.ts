import { spawnSync } from "node:child_process";
import { fstatSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { repeatEvery } from "../kernel/repeat.js";

// docs/interfaces.md, Command line (Stopping it): ways for whatever started `retail-sim serve` to stop it, in any
// language, through any launcher (npx runs the bin under `sh -c`, and a signal sent to npx may never reach it).

/** How often `--exit-with-parent` looks at its parent and, on Linux, at its other ancestors: a few small reads. */
export const PARENT_CHECK_MS = 250;
/** How often it looks at its ancestors where that takes a `ps` process (macOS and other Unix). */
export const PS_CHECK_MS = 1000;

/** A process as `--exit-with-parent` sees it. `start` tells a process from a later one given the same pid. */
export interface ProcessInfo {
  ppid: number;
  start: string;
  zombie: boolean;
}

/** Reads the processes asked for: one missing from the map is gone; `undefined` when it cannot tell this time. */
export type ReadProcesses = (pids: readonly number[]) => Map<number, ProcessInfo> | undefined;

/** An ancestor as recorded at start. */
export interface Ancestor {
  pid: number;
  start: string;
}

/** How the ancestors are read on this platform, and how often. */
export interface AncestorWatch {
  read: ReadProcesses;
  everyMs: number;
}

/**
 * The chain of ancestors from `parent` up to, not including, pid 1 (init, or a container's first process: it
 * outlives everything), as far as they can be read. A launcher (npx, npm exec, npm run, `sh -c`) may outlive the
 * shell that started it, so the parent alone does not tell whether whatever started the server is still there.
 */
export function ancestorsOf(parent: number, read: ReadProcesses): Ancestor[] {
  const chain: Ancestor[] = [];
  for (let pid = parent; pid > 1 && !chain.some((a) => a.pid === pid); ) {
    const info = read([pid])?.get(pid);
    if (info === undefined) break;
    chain.push({ pid, start: info.start });
    pid = info.ppid;
  }
  return chain;
}

/** The first recorded ancestor that is gone: not there any more, a zombie (exited, not yet reaped) or a new process. */
export function goneAncestor(chain: readonly Ancestor[], read: ReadProcesses): Ancestor | undefined {
  if (chain.length === 0) return undefined;
  const now = read(chain.map((a) => a.pid));
  if (now === undefined) return undefined;
  return chain.find((a) => {
    const info = now.get(a.pid);
    return info === undefined || info.zombie || info.start !== a.start;
  });
}

/** `/proc/<pid>/stat`: `pid (comm) state ppid ...`, the start time (in clock ticks since boot) the 22nd field. */
export function parseStat(text: string): ProcessInfo | undefined {
  // The command name may hold spaces and parentheses: the fields that follow it start after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const ppid = Number(fields[1]);
  const start = fields[19];
  if (!Number.isInteger(ppid) || start === undefined || !/^\d+$/.test(start)) return undefined;
  return { ppid, start, zombie: fields[0] === "Z" || fields[0] === "X" };
}

/** Linux: one small file read per process. */
export const readProc: ReadProcesses = (pids) => {
  const found = new Map<number, ProcessInfo>();
  for (const pid of pids) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ESRCH") continue;
      return undefined;
    }
    const info = parseStat(text);
    if (info !== undefined) found.set(pid, info);
  }
  return found;
};

/** `ps -o pid= -o ppid= -o stat= -o lstart=`: `  812   1 Ss   Sat Nov 28 09:53:01 2026` per process. */
export function parsePs(text: string): Map<number, ProcessInfo> {
  const found = new Map<number, ProcessInfo>();
  for (const line of text.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\S.*?)\s*$/.exec(line);
    if (match)
      found.set(Number(match[1]), { ppid: Number(match[2]), start: match[4]!, zombie: match[3]!.startsWith("Z") });
  }
  return found;
}

/** macOS and other Unix: one `ps` process for all the pids asked for. */
export const readPs: ReadProcesses = (pids) => {
  const args = [
    "-o",
    "pid=",
    "-o",
    "ppid=",
    "-o",
    "stat=",
    "-o",
    "lstart=",
    ...pids.flatMap((pid) => ["-p", `${pid}`]),
  ];
  const run = spawnSync("ps", args, { encoding: "utf8", env: { ...process.env, LC_ALL: "C" } });
  // ps exits 1, saying nothing, when none of the pids is there; a ps that could not run or refused tells nothing.
  if (run.error !== undefined || run.status === null || run.status > 1 || run.stderr !== "") return undefined;
  return parsePs(run.stdout);
};

/** Linux reads /proc; Windows has no ancestors to read (only the stdin pipe is watched there). */
export function platformWatch(): AncestorWatch {
  if (process.platform === "linux") return { read: readProc, everyMs: PARENT_CHECK_MS };
  if (process.platform === "win32") return { read: () => undefined, everyMs: PS_CHECK_MS };
  return { read: readPs, everyMs: PS_CHECK_MS };
}

/** What `--exit-with-parent` watches: the parent and the ancestors as they were when it was recorded. */
export interface Ancestry {
  parent: number;
  chain: Ancestor[];
  watch: AncestorWatch;
}

/**
 * Records this process's parent and ancestors. The command does it first thing, before it builds the fixture and
 * listens: one that is gone before it is recorded is never seen.
 */
export function recordAncestry(watch: AncestorWatch = platformWatch()): Ancestry {
  const parent = process.ppid;
  return { parent, chain: ancestorsOf(parent, watch.read), watch };
}

/**
 * `--exit-with-parent`: calls `stop` once when whatever started this process is gone (see `watchAncestors`), or
 * when stdin, if it is a pipe or a socket, reaches its end (every process holding its other end exited or closed it).
 */
export function exitWithParent(stop: () => void, ancestry: Ancestry): void {
  let gone = false;
  const leave = () => {
    if (gone) return;
    gone = true;
    cancel();
    stop();
  };
  const cancel = watchAncestors(leave, ancestry);
  // A terminal or /dev/null (what a shell gives a command started with `&`) never says the parent is gone.
  if (stdinIsPipe()) {
    process.stdin.on("end", leave);
    process.stdin.on("error", leave);
    process.stdin.resume();
  }
}

/**
 * Calls `gone` at each check that finds one of the recorded ancestors gone (exited, whatever the signal, or its pid
 * now another process's) or the parent changed (this process was adopted); returns its cancel.
 */
export function watchAncestors(gone: () => void, { parent, chain, watch }: Ancestry): () => void {
  const cancelParent = repeatEvery(PARENT_CHECK_MS, () => {
    if (process.ppid !== parent) gone();
  });
  const cancelChain = repeatEvery(watch.everyMs, () => {
    if (goneAncestor(chain, watch.read) !== undefined) gone();
  });
  return () => {
    cancelParent();
    cancelChain();
  };
}

function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/** `--pid-file`: this process's id and a newline; the file is removed at exit if it still holds that id. */
export function writePidFile(path: string): void {
  writeFileSync(path, `${process.pid}\n`);
  process.on("exit", () => {
    try {
      if (readFileSync(path, "utf8").trim() === String(process.pid)) rmSync(path);
    } catch {
      // Already gone, or replaced by another process's file: nothing of ours to remove.
    }
  });
}
