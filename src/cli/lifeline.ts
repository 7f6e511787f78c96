import { fstatSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { repeatEvery } from "../kernel/repeat.js";

// docs/interfaces.md, Command line (Stopping it): ways for whatever started `retail-sim serve` to stop it, in any
// language, through any launcher (npx runs the bin under `sh -c`, and a signal sent to npx may never reach it).

/** How often `--exit-with-parent` looks at its parent: one getppid call, so cheap. */
export const PARENT_CHECK_MS = 250;

/**
 * `--exit-with-parent`: calls `stop` once when the process that started this one is gone, either because the
 * parent changed (it exited, whatever the signal, and this process was adopted by another) or because stdin, when
 * it is a pipe or a socket, reached its end (every process holding its other end exited or closed it).
 */
export function exitWithParent(stop: () => void): void {
  const parent = process.ppid;
  let gone = false;
  const leave = () => {
    if (gone) return;
    gone = true;
    cancel();
    stop();
  };
  const cancel = repeatEvery(PARENT_CHECK_MS, () => {
    if (process.ppid !== parent) leave();
  });
  // A terminal or /dev/null (what a shell gives a command started with `&`) never says the parent is gone.
  if (stdinIsPipe()) {
    process.stdin.on("end", leave);
    process.stdin.on("error", leave);
    process.stdin.resume();
  }
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
