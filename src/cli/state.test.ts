import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, ensureBuilt, ROOT } from "../test-support/conformance.js";

// docs/interfaces.md, Command line (--state) and Snapshots: without --state the state lives in memory and is
// gone at exit, and an id handed out before names no row after a restart; with --state a clean stop saves a
// snapshot atomically and the next start restores it, ids continuing. Run from the built bin.

const children: ChildProcess[] = [];

beforeAll(ensureBuilt);

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

interface Running {
  child: ChildProcess;
  ready: {
    api_root: string;
    pid: number;
    state?: string;
    stores: { prefix: string; keys: { name: string; token: string }[] }[];
  };
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `retail-sim --port 0 --json --clock manual ...` and resolves with its ready line. */
function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [BIN, "--port", "0", "--json", "--clock", "manual", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf("\n");
      if (nl !== -1) resolve({ child, ready: JSON.parse(out.slice(0, nl)), stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`exited ${code} before ready: ${err}`)));
  });
}

/** SIGTERM, then the exit code. */
async function stop(running: Running): Promise<number | null> {
  running.child.kill("SIGTERM");
  return running.exited;
}

function run(args: string[]) {
  return spawnSync(process.execPath, [BIN, "--port", "0", ...args], { cwd: ROOT, encoding: "utf8", timeout: 20_000 });
}

async function api(running: Running, method: string, path: string, body?: unknown) {
  const token = running.ready.stores[0]?.keys.find((k) => k.name === "full")?.token;
  const res = await fetch(`${running.ready.api_root}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const created = async (running: Running, name: string): Promise<string> => {
  const reply = await api(running, "POST", "/demo/v1/products", { name, retail_price: 100 });
  expect(reply.status).toBe(201);
  return JSON.parse(reply.text).data.id;
};

const folder = () => mkdtempSync(join(tmpdir(), "retail-sim-state-"));

describe("docs/interfaces.md, Command line: --state", () => {
  it("a clean stop saves a snapshot (owner-only, atomically) and says so; the next start restores it and ids continue", async () => {
    const file = join(folder(), "state.json");
    const first = await start(["--state", file]);
    expect(first.ready.state).toBe(file);
    const kept = await created(first, "Kept");
    const before = await api(first, "GET", `/demo/v1/products/${kept}`);
    expect(await stop(first)).toBe(0);
    expect(first.stderr()).toMatch(new RegExp(`retail-sim: state saved to ${file} \\(\\d+ bytes\\)`));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8")).format).toBe("retail-sim/snapshot");
    expect(readdirSync(join(file, "..")).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    const second = await start(["--state", file]);
    expect(await api(second, "GET", `/demo/v1/products/${kept}`)).toEqual(before);
    const next = await created(second, "Next");
    expect(await stop(second)).toBe(0);

    // What a process that never stopped would have given as its next id.
    const never = await start([]);
    await created(never, "Kept");
    expect(await created(never, "Next")).toBe(next);
  });

  it("without --state the state is gone at exit: an id handed out before names no row, then another row", async () => {
    const first = await start([]);
    expect(first.ready.state).toBeUndefined();
    const id = await created(first, "Lost");
    expect(await stop(first)).toBe(0);
    expect(first.stderr()).toBe("");
    const second = await start([]);
    expect((await api(second, "GET", `/demo/v1/products/${id}`)).status).toBe(404);
    // Ids derive from the seed: the next product created takes the same id, for another row.
    expect(await created(second, "Different")).toBe(id);
    expect(JSON.parse((await api(second, "GET", `/demo/v1/products/${id}`)).text).data.name).toBe("Different");
    expect(await stop(second)).toBe(0);
  });

  it("the banner says when the state lives in memory only", () => {
    const banner = spawnSync(process.execPath, [BIN, "--port", "0", "--exit-with-parent"], {
      cwd: ROOT,
      encoding: "utf8",
      input: "",
      timeout: 20_000,
    });
    expect(banner.stdout).toContain("  state     in memory only, gone at exit (--state FILE saves it at a clean stop)");
  });

  it("a save that fails is reported on stderr and the stop exits 1", async () => {
    const dir = folder();
    const file = join(dir, "state.json");
    const running = await start(["--state", file]);
    await created(running, "Unsaved");
    rmSync(dir, { recursive: true, force: true });
    expect(await stop(running)).toBe(1);
    expect(running.stderr()).toContain(`retail-sim: cannot save the state to ${file}: ENOENT`);
  });

  it("a state file that is not a snapshot, or a malformed one, exits 2 with a message and is left alone", () => {
    const dir = folder();
    const fixture = join(dir, "fixture.json");
    writeFileSync(fixture, JSON.stringify({ stores: [], users: [], oauth_clients: [] }));
    const notSnapshot = run(["--state", fixture]);
    expect(notSnapshot.status).toBe(2);
    expect(notSnapshot.stderr).toContain(`the state file ${fixture} holds no snapshot`);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, JSON.stringify({ format: "retail-sim/snapshot", version: 1 }));
    const malformed = run(["--state", broken]);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain("retail-sim: invalid snapshot: sandbox: expected required property");
    expect(readFileSync(broken, "utf8")).toBe(JSON.stringify({ format: "retail-sim/snapshot", version: 1 }));
  });

  it("a state path that is no regular file (a device, a fifo, a folder) or in no folder exits 2 at once, never read", () => {
    const dir = folder();
    const fifo = join(dir, "fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const missing = join(dir, "none", "state.json");
    const cases: [file: string, reason: string][] = [
      ["/dev/zero", "cannot read the state file /dev/zero: not a regular file"],
      [fifo, `cannot read the state file ${fifo}: not a regular file`],
      [dir, `cannot read the state file ${dir}: not a regular file`],
      [missing, `the state file ${missing} cannot be saved in ${join(dir, "none")}: ENOENT`],
    ];
    for (const [file, reason] of cases) {
      // At once: a read of /dev/zero or a wait for the fifo's writer would run into the timeout (status null).
      const refused = spawnSync(process.execPath, [BIN, "--port", "0", "--state", file], {
        encoding: "utf8",
        timeout: 5_000,
      });
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`retail-sim: ${reason}`);
    }
  });

  it("--fixture FILE takes a snapshot GET /_sim/snapshot answered", async () => {
    const first = await start([]);
    const id = await created(first, "Carried");
    const snapshot = await fetch(`${first.ready.api_root}/_sim/snapshot`);
    const file = join(folder(), "snap.json");
    writeFileSync(file, await snapshot.text());
    expect(await stop(first)).toBe(0);
    const second = await start(["--fixture", file]);
    expect(JSON.parse((await api(second, "GET", `/demo/v1/products/${id}`)).text).data.name).toBe("Carried");
    expect(await stop(second)).toBe(0);
  });
});
