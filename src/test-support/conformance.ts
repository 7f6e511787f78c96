// Helpers for the conformance suite's own tests: a (possibly mutated) simulator on a socket, the
// `retail-sim serve` child process, the built CLI, and a few rules written for the tests.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { XMLParser } from "fast-xml-parser";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Mutant } from "../../conformance/test-support/mutants/index.js";
import { mutantSimulator } from "../../conformance/test-support/mutants/index.js";
import type { Rule } from "../../conformance/rule.js";
import { bodyOf, idOf } from "../../conformance/shapes.js";
import { createSimulator, type Simulator, type SimulatorOptions } from "../simulator.js";
import { withResponseCheck } from "./response-validation.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = `${ROOT}dist/bin/retail-sim.js`;

/**
 * The in-process target of `conformance({simulator})` with every honest answer judged against the
 * OpenAPI document (the response-validation hook); a mutant's rewrite of an answer is not judged.
 */
export function judged(
  make: (options: SimulatorOptions) => Simulator = createSimulator,
): (options: SimulatorOptions) => Simulator {
  return (options) => make(withResponseCheck(options));
}

/** `npm test` builds first; running vitest alone needs a build too. */
export function ensureBuilt(): void {
  if (existsSync(BIN)) return;
  const built = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
  if (built.status !== 0 || !existsSync(BIN))
    throw new Error("npm run build failed: the CLI tests need dist/bin/retail-sim.js");
}

export interface TempDirs {
  /** A new, empty directory under the system's temp dir, named with the prefix (for --out). */
  out(): string;
  /** Deletes every directory `out()` made (for afterAll). */
  removeAll(): void;
}

/** Report directories of one test file, named `prefix…`. */
export function tempDirs(prefix: string): TempDirs {
  const dirs: string[] = [];
  return {
    out() {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Listening {
  readonly sim: Simulator;
  readonly apiRoot: string;
  readonly baseUrl: string;
  readonly controlUrl: string;
  /** The demo store's full-scope key. */
  readonly token: string;
  close(): Promise<void>;
}

/** A simulator in this process on a free port, its handler wrapped by a mutant when one is given. */
export async function listenSimulator(mutant?: Mutant, wrap?: Mutant["wrap"]): Promise<Listening> {
  // The response check judges the honest simulator's answers, before any mutant or wrap changes them.
  const options = withResponseCheck({ clock: "manual", seed: 1 });
  const sim = (mutant ? mutantSimulator(mutant) : createSimulator)(options);
  if (wrap) sim.handle = wrap(sim.handle.bind(sim));
  const { url } = await sim.listen(0);
  return {
    sim,
    apiRoot: url,
    baseUrl: `${url}/demo/v1`,
    controlUrl: `${url}/_sim`,
    token: sim.token("demo", "full"),
    close: async () => {
      await sim.close();
    },
  };
}

export interface Served {
  readonly child: ChildProcess;
  readonly apiRoot: string;
  readonly baseUrl: string;
  readonly controlUrl: string;
  readonly token: string;
  stop(): Promise<void>;
}

/** `retail-sim serve --port 0 --json` in a child process; resolves once it prints its ready line. */
export function startServe(extra: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--json", ...extra], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf("\n");
      if (nl === -1) return;
      const ready = JSON.parse(out.slice(0, nl)) as {
        api_root: string;
        stores: { prefix: string; base_url: string; keys: { name: string; token: string }[] }[];
      };
      const demo = ready.stores.find((s) => s.prefix === "demo")!;
      resolve({
        child,
        apiRoot: ready.api_root,
        baseUrl: demo.base_url,
        controlUrl: `${ready.api_root}/_sim`,
        token: demo.keys.find((k) => k.name === "full")!.token,
        stop,
      });
    });
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`retail-sim serve exited ${code} before it was ready: ${err}`)));
  });
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `retail-sim conformance ...` from the build; rejects when it outlives the timeout. */
export function runCli(
  args: string[],
  timeoutMs = 90_000,
  onStderr?: (stderr: string, child: ChildProcess) => void,
  /** Variables to set; the credential variables (RETAIL_*) of the shell running the tests never reach the CLI. */
  env: Record<string, string> = {},
): Promise<CliRun> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("RETAIL_")));
  const child = spawn(process.execPath, [BIN, "conformance", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...inherited, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
    onStderr?.(stderr, child);
  });
  onStderr?.("", child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`retail-sim conformance ${args.join(" ")} did not end within ${timeoutMs} ms\nstderr: ${stderr}`),
      );
    }, timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Every product of the demo store (all pages). */
export async function productNames(baseUrl: string, token: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const res = await fetch(`${baseUrl}/products?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) throw new Error(`GET /products answered ${res.status}`);
    const page = (await res.json()) as { data: { name: string }[]; next_cursor: string | null; has_more: boolean };
    names.push(...page.data.map((p) => p.name));
    if (!page.has_more) return names;
    cursor = page.next_cursor;
  }
  throw new Error("GET /products did not end after 100 pages");
}

// Rules written for the tests. They sit in a catalog passed to conformance(), never in the real one.

/** Declares that it needs the control plane: skipped before it runs on a target without one. */
export const needsControlRule: Rule = {
  id: "zztest.declares-control",
  area: "Store states",
  title: "A test rule that declares it needs the control plane",
  spec: { section: "Test", quote: "A rule that moves store states needs the control plane." },
  needs: { control: true },
  cost: 1,
  async run(ctx) {
    await ctx.control("GET", "/health");
  },
};

/** Would change data the run did not create: runs only where there is a control plane. */
export const destructiveRule: Rule = {
  id: "zztest.destructive",
  area: "Catalog",
  title: "A test rule that declares it changes shared data",
  spec: { section: "Test", quote: "A run only changes and deletes what it created." },
  needs: { destructive: true },
  cost: 1,
  async run(ctx) {
    ctx.status(await ctx.call("GET", "/me"), 200);
  },
};

/** Reaches for the control plane while it runs: skipped with the same reason on a target without one. */
export const usesControlRule: Rule = {
  id: "zztest.reaches-control",
  area: "Store states",
  title: "A test rule that calls the control plane without declaring it",
  spec: { section: "Test", quote: "A rule may find out while it runs that it needs the control plane." },
  cost: 2,
  async run(ctx) {
    ctx.status(await ctx.call("GET", "/me"), 200);
    ctx.status(await ctx.control("GET", "/clock"), 200);
  },
};

/** Creates a product named by the run (rsconf-…) and leaves it for the run's cleanup. */
export const createsProductRule: Rule = {
  id: "zztest.creates-product",
  area: "Catalog",
  title: "A test rule that creates a product and leaves it to the cleanup",
  spec: { section: "Test", quote: "Everything the run creates carries the run id and is deleted at the end." },
  cost: 2,
  async run(ctx) {
    const created = await ctx.call("POST", "/products", { body: { name: ctx.name("product"), retail_price: 1234 } });
    ctx.status(created, 201, 200);
    ctx.track(`/products/${idOf(created)}`);
  },
};

/**
 * Handles credentials a report must never show: it makes a key through the control plane, uses it,
 * puts it in a URL, and fails with an observation that quotes the key's creation.
 */
export const leakyRule: Rule = {
  id: "zztest.leaky-failure",
  area: "Authentication",
  title: "A test rule that fails while holding several credentials",
  spec: { section: "Test", quote: "Credentials never reach a report." },
  cost: 4,
  async run(ctx) {
    const key = await ctx.control("POST", "/stores/demo/keys", { name: "zztest", scopes: ["catalog:read"] });
    ctx.status(key, 200, 201);
    const token = String(bodyOf(key)?.token);
    ctx.status(await ctx.call("GET", "/me", { token }), 200);
    await ctx.call("GET", `/outlets?note=${encodeURIComponent(token)}`, {
      headers: { "x-echo": `Bearer ${ctx.run.token}` },
    });
    ctx.check(false, "a failure to report", `the key ${key.text} and the run's token ${ctx.run.token}`);
  },
};

/** A JUnit file as a CI tool reads it: the totals of `<testsuites>`, and whether that reads as passed. */
export function junitVerdict(text: string): {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  passed: boolean;
} {
  const root = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(text).testsuites;
  const n = (k: string) => Number(root?.[k] ?? Number.NaN);
  const totals = { tests: n("tests"), failures: n("failures"), errors: n("errors"), skipped: n("skipped") };
  return { ...totals, passed: totals.tests > 0 && totals.failures === 0 && totals.errors === 0 };
}
