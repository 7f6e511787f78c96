import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

// interfaces.md section 1: the retail-sim command line, run from the built bin as `npx retail-sim` runs it.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = `${ROOT}dist/bin/retail-sim.js`;
const children: ChildProcess[] = [];

beforeAll(() => {
  // `npm test` builds first; running vitest alone needs a build too.
  if (!existsSync(BIN)) spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Starts `retail-sim` and resolves with the first line it prints. */
function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf("\n");
      if (nl !== -1) resolve({ child, line: out.slice(0, nl) });
    });
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`exited ${code} before ready: ${err}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

describe("interfaces.md 1: retail-sim serve", () => {
  it("--port 0 --json prints the ready line; GET {base_url}/me with the full key answers the Identity", async () => {
    const { child, line } = await start(["--port", "0", "--json"]);
    const ready = JSON.parse(line);
    expect(Object.keys(ready)).toEqual(["api_root", "auth_url", "stores", "oauth_clients", "listen_url", "pid"]);
    expect(ready.pid).toBe(child.pid);
    expect(ready.api_root).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.listen_url).toBe(ready.api_root);
    expect(ready.auth_url).toBe(ready.api_root);
    const demo = ready.stores.find((s: { prefix: string }) => s.prefix === "demo");
    expect(demo.base_url).toBe(`${ready.api_root}/demo/v1`);
    const full = demo.keys.find((k: { name: string }) => k.name === "full");
    const res = await fetch(`${demo.base_url}/me`, { headers: { authorization: `Bearer ${full.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: {
        store_name: "Demo Outfitters",
        domain_prefix: "demo",
        scopes: full.scopes,
        key: { id: full.id, name: "full" },
      },
    });
    child.kill("SIGTERM");
    expect(await exitOf(child)).toBe(0);
  });

  it("the same seed prints the same credentials; the manual clock starts at --now", async () => {
    const a = JSON.parse(
      (await start(["--port", "0", "--json", "--seed", "5", "--clock", "manual", "--now", "2030-05-05T05:05:05Z"]))
        .line,
    );
    const b = JSON.parse((await start(["--port", "0", "--json", "--seed", "5"])).line);
    expect(a.stores.map((s: { keys: unknown }) => s.keys)).toEqual(b.stores.map((s: { keys: unknown }) => s.keys));
    const clock = await (await fetch(`${a.api_root}/_sim/clock`)).json();
    expect(clock).toEqual({ now: "2030-05-05T05:05:05.000Z" });
  });

  it("--public-url (or RETAIL_SIM_PUBLIC_URL) fixes every URL: two runs on free ports print and answer the same bytes", async () => {
    const args = ["--port", "0", "--json", "--seed", "3", "--clock", "manual"];
    const runs = [
      await start([...args, "--public-url", "http://sim.test:4747"]),
      await start(args, { RETAIL_SIM_PUBLIC_URL: "http://sim.test:4747/" }),
    ];
    const answers: string[][] = [];
    for (const { line } of runs) {
      const { listen_url, pid: _, ...ready } = JSON.parse(line);
      expect(listen_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ready.api_root).toBe("http://sim.test:4747");
      expect(ready.stores[0].base_url).toBe("http://sim.test:4747/demo/v1");
      const auth = { authorization: `Bearer ${ready.stores[0].keys[0].token}` };
      const texts = [JSON.stringify(ready)];
      for (const path of ["/_sim/credentials", "/demo/v1/products?sku=TOTE-CANVAS", "/demo/v1/openapi.json"]) {
        const res = await fetch(`${listen_url}${path}`, { headers: auth });
        texts.push(`${res.status} ${res.headers.get("date")} ${await res.text()}`);
      }
      answers.push(texts);
    }
    expect(JSON.parse(runs[0]!.line).listen_url).not.toBe(JSON.parse(runs[1]!.line).listen_url);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]!.join("\n")).toContain('"image_url":"http://sim.test:4747/images/');
  });

  it("without --json prints the API root, each store's base URL and its keys", async () => {
    const child = spawn(process.execPath, [BIN, "serve", "--port", "0"], { cwd: ROOT });
    children.push(child);
    const text = await new Promise<string>((resolve) => {
      let out = "";
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        if (out.includes("Press Ctrl+C")) resolve(out);
      });
    });
    expect(text).toMatch(/retail-sim is ready at http:\/\/127\.0\.0\.1:\d+/);
    expect(text).toMatch(/Store demo \(Demo Outfitters, plan growth, active\): http:\/\/127\.0\.0\.1:\d+\/demo\/v1/);
    expect(text).toMatch(/ full +rsk_[0-9A-Za-z]{40} /);
    child.kill("SIGINT");
    expect(await exitOf(child)).toBe(0);
  });

  it("--max-sandboxes caps the live sandboxes: the next POST /_sim/sandboxes answers 409 CONFLICT", async () => {
    const { child, line } = await start(["--port", "0", "--json", "--max-sandboxes", "1"]);
    const root = JSON.parse(line).api_root;
    const make = () =>
      fetch(`${root}/_sim/sandboxes`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect((await make()).status).toBe(201);
    const refused = await make();
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");
    child.kill("SIGTERM");
    expect(await exitOf(child)).toBe(0);
  });

  it("--no-control serves no /_sim", async () => {
    const ready = JSON.parse((await start(["--port", "0", "--json", "--no-control"])).line);
    expect((await fetch(`${ready.api_root}/_sim/health`)).status).toBe(404);
  });

  it("a JSON body over the size limit gets a 400 envelope over a real socket, never a 500", async () => {
    const ready = JSON.parse((await start(["--port", "0", "--json"])).line);
    const res = await fetch(`${ready.api_root}/_sim/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(2 * 1024 * 1024),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_FAILED");
  });

  it("--control-token protects /_sim: no token or a wrong one answers 401 UNAUTHORIZED; the API is unaffected; the token is never printed", async () => {
    const secret = "control-secret-0123456789";
    const { line } = await start(["--port", "0", "--json", "--control-token", secret]);
    expect(line).not.toContain(secret);
    const ready = JSON.parse(line);
    for (const authorization of [undefined, "Bearer wrong-secret-0123456789", `Basic ${secret}`, `Bearer ${secret}x`]) {
      const res = await fetch(`${ready.api_root}/_sim/health`, {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toStrictEqual({
        error: { code: "UNAUTHORIZED", message: expect.stringContaining("--control-token") },
      });
    }
    const ok = await fetch(`${ready.api_root}/_sim/health`, { headers: { authorization: `Bearer ${secret}` } });
    expect(ok.status).toBe(200);
    const demo = ready.stores.find((s: { prefix: string }) => s.prefix === "demo");
    expect(
      (await fetch(`${demo.base_url}/me`, { headers: { authorization: `Bearer ${demo.keys[0].token}` } })).status,
    ).toBe(200);
  });

  it("RETAIL_SIM_CONTROL_TOKEN sets the control token without putting it on the command line", async () => {
    const child = spawn(process.execPath, [BIN, "--port", "0", "--json"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, RETAIL_SIM_CONTROL_TOKEN: "env-secret-0123456789" },
    });
    children.push(child);
    const line = await new Promise<string>((resolve) => {
      let out = "";
      child.stdout!.on("data", (c: Buffer) => {
        out += c.toString();
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
    });
    const root = JSON.parse(line).api_root;
    expect((await fetch(`${root}/_sim/health`)).status).toBe(401);
    expect(
      (await fetch(`${root}/_sim/health`, { headers: { authorization: "Bearer env-secret-0123456789" } })).status,
    ).toBe(200);
  });

  it("SIGTERM lets a request in flight finish, then stops: the held request is answered in full, with Connection: close, and the exit code is 0", async () => {
    const { child, line } = await start(["--port", "0", "--json"]);
    const ready = JSON.parse(line);
    const demo = ready.stores.find((s: { prefix: string }) => s.prefix === "demo");
    const fault = (await (
      await fetch(`${ready.api_root}/_sim/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ hold: true, path: "/demo/v1/me" }),
      })
    ).json()) as { id: number };
    const inFlight = fetch(`${demo.base_url}/me`, { headers: { authorization: `Bearer ${demo.keys[0].token}` } });
    // Wait (by asking, not sleeping) until the server holds the request.
    for (;;) {
      const faults = (await (await fetch(`${ready.api_root}/_sim/faults`)).json()) as { id: number; held: number }[];
      if (faults.find((f) => f.id === fault.id)?.held === 1) break;
    }
    const exited = exitOf(child);
    child.kill("SIGTERM");
    const res = await inFlight;
    expect(res.status).toBe(200);
    // docs/interfaces.md, Signals: no client is invited to reuse a connection about to close.
    expect(res.headers.get("connection")).toBe("close");
    expect(((await res.json()) as { data: { domain_prefix: string } }).data.domain_prefix).toBe("demo");
    expect(await exited).toBe(0);
    await expect(fetch(`${ready.api_root}/_sim/health`)).rejects.toThrow();
  });

  it.each([
    [["--control-token", "short"], "--control-token must be 16 to 256 printable characters without spaces"],
    [["--port", "-1"], "--port must be an integer from 0 to 65535"],
    [["--fixture", "/no/such/file.json"], 'fixture "/no/such/file.json" is neither a built-in fixture'],
    // Refused unread: a device is no regular file (docs/interfaces.md, Snapshots).
    [
      ["--fixture", "/dev/zero"],
      'fixture "/dev/zero" is neither a built-in fixture (demo, empty, large) nor a readable file: not a regular file',
    ],
    [["--clock", "sundial"], "Invalid values"],
    [["--now", "yesterday"], "--now must be an ISO 8601 date-time"],
    [["--now", "9999-06-01T00:00:00Z"], "--now would put the clock past its last instant, 9999-01-01T00:00:00.000Z"],
    [
      ["--public-url", "http://sim.test/api"],
      '--public-url must be an http(s) origin without path, query or fragment: "http://sim.test/api" has a path',
    ],
    [["--public-url", "sim.test:4747"], '"sim.test:4747" is not'],
    [["--allow-host", "sim.test:4747"], '--allow-host: "sim.test:4747" is not a host name without a port'],
    [["--allow-host", "http://sim.test"], '--allow-host: "http://sim.test" is not a host name without a port'],
    [["--max-sandboxes", "-1"], "--max-sandboxes must be an integer from 0 to 100000"],
    [["--sandbox-idle-seconds", "0"], "--sandbox-idle-seconds must be an integer from 1 to 31536000"],
    [["--bogus"], "Unknown argument"],
  ])("bad arguments %j exit 2 with a message", (args, message) => {
    const run = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8", timeout: 10_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
  });
});

describe("interfaces.md 1: retail-sim openapi", () => {
  it("prints the OpenAPI document with the store prefix in its server URL", () => {
    const run = spawnSync(process.execPath, [BIN, "openapi", "--prefix", "other"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 10_000,
    });
    expect(run.status).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers).toEqual([{ url: "http://127.0.0.1:4747/other/v1", description: "This store's base URL." }]);
    expect(doc.paths["/me"].get.operationId).toBe("getMe");
  });

  it("--oauth prints the token endpoint's document, whose server is the API root", () => {
    const run = spawnSync(process.execPath, [BIN, "openapi", "--oauth", "--api-root", "http://localhost:9/"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 10_000,
    });
    expect(run.status).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.servers[0].url).toBe("http://localhost:9");
    expect(Object.keys(doc.paths)).toEqual(["/oauth/token"]);
    expect(doc.paths["/oauth/token"].post.operationId).toBe("createToken");
  });
});
