import { type ChildProcess, spawn } from "node:child_process";

// docs/interfaces.md, Command line: a command that starts the simulator (`npm start -- ...`, `npx retail-sim ...`)
// run to its ready line (`--json`), in a process group of its own so the launcher, its `sh -c` and the server
// are stopped together whatever the test found.

/** The ready line's fields the tests read. */
export interface ReadyLine {
  listen_url: string;
  pid: number;
  stores: { prefix: string; base_url: string; keys: { name: string; token: string }[] }[];
}

export interface Launched {
  child: ChildProcess;
  ready: ReadyLine;
  /** Resolves once every holder of the launcher's stdout (the launcher, its shell and the server) is gone. */
  allGone: Promise<void>;
  /** Signals the whole group (if the launcher still runs) and waits for the launcher to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs `command args` in `cwd` until it prints its first line, the ready line; rejects if it exits first. */
export async function launchToReady(command: string, args: readonly string[], cwd: string): Promise<Launched> {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const allGone = new Promise<void>((resolve) => child.stdout?.on("close", resolve));
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
      await exited;
    }
  };
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (c: Buffer) => {
        out += c.toString();
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
      child.on("exit", (code) => reject(new Error(`${command} exited ${code} before its ready line`)));
    });
    return { child, ready: JSON.parse(line) as ReadyLine, allGone, stop };
  } catch (error) {
    await stop("SIGKILL");
    throw error;
  }
}

/** `GET /me` in the ready line's demo store with its first key. */
export async function demoMe(ready: ReadyLine): Promise<Response> {
  const demo = ready.stores.find((s) => s.prefix === "demo");
  if (!demo) throw new Error("the ready line has no demo store");
  return fetch(`${demo.base_url}/me`, { headers: { authorization: `Bearer ${demo.keys[0]?.token}` } });
}
