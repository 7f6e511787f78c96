import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

// docs/interfaces.md, Command line (`--host`): on an address other machines can reach, `retail-sim serve` refuses
// to start with an open /_sim (it hands out every credential and resets the simulator) unless told how to
// guard it or that the user means it: --control-token (or RETAIL_SIM_CONTROL_TOKEN), --no-control, --insecure-control.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = `${ROOT}dist/bin/retail-sim.js`;
const TOKEN = "exposed-test-token-0123456789";

beforeAll(() => {
  // `npm test` builds first; running vitest alone needs a build too.
  if (!existsSync(BIN)) spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
});

const refusal = (place: string) =>
  `retail-sim: refusing to serve on ${place}: it is not a loopback address, and the /_sim control plane, which hands out every API key, client secret and password and can reset the simulator, has no token. Pass --control-token <secret> (or set RETAIL_SIM_CONTROL_TOKEN), --no-control, or --insecure-control to serve it open anyway.\n`;

/** Runs `serve` to its ready line, stops it with SIGTERM and resolves with its listen URL, stderr and exit code. */
function serveThenStop(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ listen: string; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [BIN, "--port", "0", "--json", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, RETAIL_SIM_CONTROL_TOKEN: "", ...env },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes("\n")) child.kill("SIGTERM");
  });
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  // 'close': the process exited and its stdout and stderr were read to their end.
  return new Promise((resolve) =>
    child.on("close", (code) =>
      resolve({ listen: out ? JSON.parse(out.split("\n")[0] as string).listen_url : "", stderr: err, code }),
    ),
  );
}

describe("docs/interfaces.md, Command line: a non-loopback --host needs a guarded or deliberately open /_sim", () => {
  it.each([
    ["0.0.0.0", "0.0.0.0"],
    ["::", "::"],
    ["", "every address"],
  ])("--host %j without a control token exits 2, saying why and what to pass", (host, place) => {
    const run = spawnSync(process.execPath, [BIN, "--port", "0", "--host", host], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 20_000,
      env: { ...process.env, RETAIL_SIM_CONTROL_TOKEN: "" },
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(refusal(place));
  });

  it.each([["localhost"], ["127.0.0.2"]])("--host %s, a loopback address, starts as before", async (host) => {
    const run = await serveThenStop(["--host", host]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.listen).toMatch(/^http:\/\/(127\.0\.0\.[12]|\[::1\]):\d+$/);
  });

  it.each([
    ["--control-token", ["--control-token", TOKEN], {}],
    ["RETAIL_SIM_CONTROL_TOKEN", [], { RETAIL_SIM_CONTROL_TOKEN: TOKEN }],
    ["--no-control", ["--no-control"], {}],
  ])("--host 0.0.0.0 with %s starts, without a warning", async (_name, args, env) => {
    const run = await serveThenStop(["--host", "0.0.0.0", ...args], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.listen).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
  });

  it("--host 0.0.0.0 with --insecure-control starts, with a warning on stderr", async () => {
    const run = await serveThenStop(["--host", "0.0.0.0", "--insecure-control"]);
    expect(run.code).toBe(0);
    expect(run.listen).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    expect(run.stderr).toBe(
      "retail-sim: warning: /_sim is served without a token on 0.0.0.0, which other machines can reach (--insecure-control)\n",
    );
  });
});
