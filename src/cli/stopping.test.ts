import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

// docs/interfaces.md, Command line (Stopping it): whatever started `retail-sim serve` can stop it, through the pid in
// the ready line, a pid file, or --exit-with-parent, even when a launcher stands between them (run from the built bin).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = `${ROOT}dist/bin/retail-sim.js`;
const children: ChildProcess[] = [];
const strays: number[] = [];

beforeAll(() => {
  // `npm test` builds first; running vitest alone needs a build too.
  if (!existsSync(BIN)) spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone, as it should be.
    }
  }
});

interface Ready {
  api_root: string;
  listen_url: string;
  pid: number;
  stores: { keys: { token: string }[] }[];
}

/**
 * Spawns `command`, resolves with the first line it prints and a reader of its stderr so far; the ready line's
 * pid is killed after the test.
 */
function start(
  command: string,
  args: string[],
  stdin: "ignore" | "pipe" = "ignore",
): Promise<{ child: ChildProcess; ready: Ready; stderr: () => string }> {
  const child = spawn(command, args, { cwd: ROOT, stdio: [stdin, "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf("\n");
      if (nl === -1) return;
      const ready = JSON.parse(out.slice(0, nl)) as Ready;
      strays.push(ready.pid);
      resolve({ child, ready, stderr: () => err });
    });
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`exited ${code} before ready: ${err}`)));
  });
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

/** Resolves once every process holding the write end of the child's stdout (the server included) is gone. */
const stdoutClosed = (child: ChildProcess) => new Promise<void>((resolve) => child.stdout!.on("close", resolve));

const health = async (ready: Ready) => (await fetch(`${ready.listen_url}/_sim/health`)).status;

describe("docs/interfaces.md, Command line: stopping what you started", () => {
  it("the --json ready line carries the server's own pid: SIGTERM to it stops the server with exit 0", async () => {
    const { child, ready } = await start(process.execPath, [BIN, "--port", "0", "--json"]);
    expect(ready.pid).toBe(child.pid);
    const exited = exitOf(child);
    process.kill(ready.pid, "SIGTERM");
    expect(await exited).toBe(0);
  });

  it("--pid-file holds the server's pid (and a newline) once the ready line is out, and is removed at exit", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "retail-sim-pid-")), "sim.pid");
    const { child, ready } = await start(process.execPath, [BIN, "--port", "0", "--json", "--pid-file", file]);
    expect(readFileSync(file, "utf8")).toBe(`${child.pid}\n`);
    expect(ready.pid).toBe(child.pid);
    const exited = exitOf(child);
    process.kill(Number(readFileSync(file, "utf8")), "SIGTERM");
    expect(await exited).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("a pid file that cannot be written exits 2 with a message", () => {
    const run = spawnSync(process.execPath, [BIN, "--port", "0", "--pid-file", "/no/such/dir/sim.pid"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 10_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("retail-sim: cannot write the pid file: ENOENT");
  });

  it("--exit-with-parent: a launcher between (sh -c, as npx uses) killed with SIGKILL, the server stops on its own", async () => {
    // `; exit` keeps sh from replacing itself with node: sh stays the server's parent, as under npx.
    const script = `"${process.execPath}" "${BIN}" --port 0 --json --exit-with-parent; exit $?`;
    const { child, ready } = await start("sh", ["-c", script]);
    expect(ready.pid).not.toBe(child.pid);
    expect(await health(ready)).toBe(200);
    const closed = stdoutClosed(child);
    child.kill("SIGKILL");
    await closed;
    await expect(fetch(`${ready.listen_url}/_sim/health`)).rejects.toThrow();
  });

  it("--exit-with-parent: stdin, a pipe, closes (its parent exited or closed it): the server stops with exit 0", async () => {
    const { child, ready } = await start(
      process.execPath,
      [BIN, "--port", "0", "--json", "--exit-with-parent"],
      "pipe",
    );
    expect(await health(ready)).toBe(200);
    const exited = exitOf(child);
    child.stdin!.end();
    expect(await exited).toBe(0);
  });

  it("without --exit-with-parent, a closed stdin changes nothing: the server still answers", async () => {
    const { child, ready } = await start(process.execPath, [BIN, "--port", "0", "--json"], "pipe");
    const ended = new Promise((resolve) => child.stdin!.end(resolve));
    await ended;
    for (let i = 0; i < 20; i++) expect(await health(ready)).toBe(200);
    expect(child.exitCode).toBe(null);
  });
});

/** Resolves once the server took the request its only fault delays: a used-up delay fault leaves the list. */
async function delayed(ready: Ready): Promise<void> {
  while (((await (await fetch(`${ready.listen_url}/_sim/faults`)).json()) as unknown[]).length > 0);
}

describe("docs/interfaces.md, Command line (Signals): the shutdown grace", () => {
  it("a request the grace cuts off is reported on stderr and the exit code is 1", async () => {
    const args = [BIN, "--port", "0", "--json", "--shutdown-grace-seconds", "0"];
    const { child, ready, stderr } = await start(process.execPath, args);
    const fault = { method: "GET", path: "/demo/v1/me", delay_ms: 60_000, times: 1 };
    const json = { "content-type": "application/json" };
    const added = await fetch(`${ready.listen_url}/_sim/faults`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(fault),
    });
    expect(added.status).toBe(201);
    const token = ready.stores[0]!.keys[0]!.token;
    const answer = fetch(`${ready.listen_url}/demo/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then(
      (res) => `answered ${res.status}`,
      () => "cut off",
    );
    await delayed(ready);
    const exited = exitOf(child);
    child.kill("SIGTERM");
    expect(await exited).toBe(1);
    expect(await answer).toBe("cut off");
    expect(stderr()).toBe(
      "retail-sim: 1 request was cut off unanswered: the shutdown grace of 0 s (--shutdown-grace-seconds) ran out\n",
    );
  });

  it("64 idle keep-alive clients are closed without a reset and the exit does not wait for the grace", async () => {
    const { child, ready } = await start(process.execPath, [
      BIN,
      "--port",
      "0",
      "--json",
      "--shutdown-grace-seconds",
      "3600",
    ]);
    const port = Number(new URL(ready.listen_url).port);
    const ends: Promise<string>[] = [];
    await Promise.all(
      Array.from({ length: 64 }, () => {
        const socket = connect(port, "127.0.0.1");
        ends.push(
          new Promise((resolve) => {
            socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
            socket.on("close", (hadError) => hadError || resolve("clean"));
          }),
        );
        return new Promise((answered) => {
          socket.once("data", answered);
          socket.write("GET /_sim/health HTTP/1.1\r\nHost: x\r\n\r\n");
        });
      }),
    );
    const exited = exitOf(child);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(await Promise.all(ends)).toStrictEqual(Array(64).fill("clean"));
  });

  it.each(["-1", "3601", "soon"])("--shutdown-grace-seconds %s exits 2 with a message", (value) => {
    const run = spawnSync(process.execPath, [BIN, "--port", "0", "--shutdown-grace-seconds", value], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 10_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("retail-sim: --shutdown-grace-seconds must be a number from 0 to 3600");
  });
});
