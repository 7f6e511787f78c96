// Helpers for the generated-client test (src/contract/openapi-clients.test.ts): the repository's own binaries of
// the generators and tsc, run without blocking this thread (the simulator they talk to is served by this process),
// and the work folder each tool generates into: a copy of examples/generated-clients with the served documents.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const EXAMPLE = join(ROOT, "examples/generated-clients");

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node_modules/.bin/<tool>` in `cwd`; resolves when it ends, rejects when it outlives the timeout. */
export function runBin(tool: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<Finished> {
  const child = spawn(join(ROOT, "node_modules/.bin", tool), args, {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  return collect(child, `${tool} ${args.join(" ")}`, timeoutMs);
}

/** Runs a compiled driver with node; its input is one JSON argument. */
export function runNode(script: string, input: unknown, timeoutMs = 60_000): Promise<Finished> {
  const child = spawn(process.execPath, [script, JSON.stringify(input)], { stdio: ["ignore", "pipe", "pipe"] });
  return collect(child, `node ${script}`, timeoutMs);
}

function collect(child: ReturnType<typeof spawn>, what: string, timeoutMs: number): Promise<Finished> {
  let [stdout, stderr] = ["", ""];
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${what} did not end within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A tool's work folder under `root`: the example's shared driver code, the tool's driver (and config), and the
 * two documents as the example's commands expect them (`openapi.json`, `oauth-openapi.json`).
 */
export function workFolder(root: string, tool: "heyapi" | "orval", documents: { api: unknown; oauth: unknown }) {
  const dir = join(root, tool);
  mkdirSync(dir, { recursive: true });
  for (const file of ["drive.ts", `${tool}.ts`, ...(tool === "orval" ? ["orval.config.cjs"] : [])])
    copyFileSync(join(EXAMPLE, file), join(dir, file));
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(documents.api));
  writeFileSync(join(dir, "oauth-openapi.json"), JSON.stringify(documents.oauth));
  return dir;
}

/**
 * The project tsc checks and builds: the example's compiler options (strict, noUncheckedIndexedAccess) over both
 * work folders, generated code included; Node's types from this repository, output as ES modules beside.
 */
export function writeProject(root: string): void {
  writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module", private: true }));
  writeFileSync(
    join(root, "tsconfig.json"),
    JSON.stringify({
      extends: join(EXAMPLE, "tsconfig.json"),
      compilerOptions: { typeRoots: [join(ROOT, "node_modules/@types")], rootDir: ".", outDir: "out" },
      include: ["heyapi", "orval"],
    }),
  );
}
