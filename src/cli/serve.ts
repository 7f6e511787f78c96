import type { CommandModule } from "yargs";
import { LAST_INSTANT, PAST_LAST_INSTANT, parseUtcDateTime } from "../kernel/clock.js";
import { FixtureError } from "../../scenarios/fixtures/index.js";
import { publicOrigin } from "../http/public-url.js";
import type { CredentialsView } from "../engine/control.js";
import { CAP_NAMES, parseCapArgs, resolveCaps, type Caps } from "../engine/caps.js";
import { allowedHost, ExposedControlError, isLoopback } from "../http/exposure.js";
import { DEFAULT_SHUTDOWN_GRACE_SECONDS } from "../http/node.js";
import { createSimulator } from "../simulator.js";
import { exitWithParent, recordAncestry, writePidFile } from "./lifeline.js";
import { openState, saveState, StateFileError, type StateFile } from "./state-file.js";

interface ServeArgs {
  port: number;
  host: string;
  seed: number;
  fixture: string;
  clock: "system" | "manual";
  now?: string;
  control: boolean;
  json: boolean;
  "rate-limits": boolean;
  journal: boolean;
  "control-token"?: string;
  "insecure-control": boolean;
  "public-url"?: string;
  "allow-host": string[];
  "pid-file"?: string;
  "exit-with-parent": boolean;
  state?: string;
  "max-sandboxes": number;
  "sandbox-idle-seconds": number;
  "shutdown-grace-seconds": number;
  cap: string[];
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: ["serve", "$0"],
  describe: "Start the simulator (the default command)",
  builder: (y) =>
    y
      .option("port", { type: "number", default: 4747, describe: "Port; 0 picks a free one" })
      .option("host", { type: "string", default: "127.0.0.1", describe: "Address to bind" })
      .option("seed", { type: "number", default: 1, describe: "Every id, token and fixture value derives from it" })
      .option("fixture", {
        type: "string",
        default: "demo",
        describe: "demo | empty | large | path to a JSON fixture or snapshot",
      })
      .option("state", {
        type: "string",
        describe: "Start from the snapshot in this file if it exists; save one there at a clean stop",
      })
      .option("clock", {
        choices: ["system", "manual"] as const,
        default: "system" as const,
        describe: "system: wall clock plus travel; manual: frozen until moved",
      })
      .option("now", {
        type: "string",
        describe: "Start time of the clock, ISO 8601 (manual default 2026-01-01T00:00:00Z)",
      })
      .option("control", {
        type: "boolean",
        default: true,
        describe: "Serve the /_sim control plane (--no-control turns it off)",
      })
      .option("control-token", {
        type: "string",
        describe: "Require Authorization: Bearer <token> on every /_sim request",
      })
      .option("insecure-control", {
        type: "boolean",
        default: false,
        describe:
          "Serve /_sim without a token on an address other machines can reach (refused otherwise: use --control-token or --no-control)",
      })
      .option("public-url", {
        type: "string",
        describe: "The origin every URL the simulator writes starts with (or RETAIL_SIM_PUBLIC_URL), e.g. for --port 0",
      })
      .option("allow-host", {
        type: "string",
        array: true,
        default: [] as string[],
        describe:
          "A name /_sim answers to besides loopback and localhost while on loopback (repeatable), e.g. a dev proxy's",
      })
      .option("pid-file", {
        type: "string",
        describe: "Write the server's process id to this file when ready (removed at exit)",
      })
      .option("exit-with-parent", {
        type: "boolean",
        default: false,
        describe:
          "Stop when whatever started it is gone: its parent or a process above it (up to pid 1) exits, even through npx, or stdin, a pipe, closes",
      })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON line when ready" })
      .option("max-sandboxes", {
        type: "number",
        default: 1000,
        describe: "Live sandboxes at most, besides the default one (POST /_sim/sandboxes answers 409 at the cap)",
      })
      .option("sandbox-idle-seconds", {
        type: "number",
        default: 1800,
        describe: "A sandbox unused for this long is removed",
      })
      .option("shutdown-grace-seconds", {
        type: "number",
        default: DEFAULT_SHUTDOWN_GRACE_SECONDS,
        describe:
          "On SIGINT/SIGTERM, how long requests in flight have to be answered; any cut off makes the exit code 1",
      })
      .option("cap", {
        type: "string",
        array: true,
        default: [] as string[],
        describe: `Bound a store of state, name=integer (repeatable): ${Object.values(CAP_NAMES).join(", ")}`,
      })
      .option("rate-limits", {
        type: "boolean",
        default: true,
        describe: "Apply the spec's rate limits (--no-rate-limits turns them off, e.g. for load tests)",
      })
      .option("journal", {
        type: "boolean",
        default: true,
        describe:
          "Keep each sandbox's request journal and coverage, at {control_url}/requests and /coverage (--no-journal turns them off)",
      })
      .check((a) => {
        if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
          throw new Error("--port must be an integer from 0 to 65535");
        if (!Number.isInteger(a.seed) || a.seed < 0 || a.seed > 4294967295)
          throw new Error("--seed must be an integer from 0 to 4294967295");
        if (a["control-token"] !== undefined && !/^[\x21-\x7E]{16,256}$/.test(a["control-token"] as string))
          throw new Error("--control-token must be 16 to 256 printable characters without spaces");
        if (!Number.isInteger(a["max-sandboxes"]) || a["max-sandboxes"] < 0 || a["max-sandboxes"] > 100_000)
          throw new Error("--max-sandboxes must be an integer from 0 to 100000");
        const idle = a["sandbox-idle-seconds"];
        if (!Number.isInteger(idle) || idle < 1 || idle > 31_536_000)
          throw new Error("--sandbox-idle-seconds must be an integer from 1 to 31536000");
        const grace = a["shutdown-grace-seconds"];
        if (!Number.isFinite(grace) || grace < 0 || grace > 3600)
          throw new Error("--shutdown-grace-seconds must be a number from 0 to 3600");
        const now = a.now === undefined ? undefined : parseUtcDateTime(a.now);
        if (a.now !== undefined && now === undefined)
          throw new Error("--now must be an ISO 8601 date-time in UTC ending in Z");
        if (now !== undefined && now > LAST_INSTANT) throw new Error(`--now ${PAST_LAST_INSTANT}`);
        const caps = parseCapArgs(a.cap);
        if (!caps.ok) throw new Error(caps.error);
        const resolved = resolveCaps(caps.value);
        if (!resolved.ok) throw new Error(`--cap: ${resolved.error}`);
        const publicUrl = givenPublicUrl(a["public-url"]);
        const origin = publicUrl === undefined ? undefined : publicOrigin(publicUrl);
        if (origin !== undefined && !origin.ok)
          throw new Error(`--public-url must be an http(s) origin without path, query or fragment: ${origin.error}`);
        for (const name of a["allow-host"]) {
          const allowed = allowedHost(name);
          if (!allowed.ok) throw new Error(`--allow-host: ${allowed.error}`);
        }
        return true;
      }),
  handler: async (args) => {
    // First: an ancestor that is gone before it is recorded is never seen (building a large fixture takes seconds).
    const ancestry = args["exit-with-parent"] ? recordAncestry() : undefined;
    let sim;
    let state: StateFile | undefined;
    try {
      state = args.state === undefined ? undefined : openState(args.state);
      sim = createSimulator({
        seed: args.seed,
        fixture: state?.snapshot ?? args.fixture,
        clock: args.clock,
        now: args.now,
        control: args.control,
        // The environment keeps the secret off the process list.
        controlToken: args["control-token"] ?? process.env.RETAIL_SIM_CONTROL_TOKEN,
        insecureControl: args["insecure-control"],
        rateLimits: args["rate-limits"],
        journal: args.journal,
        maxSandboxes: args["max-sandboxes"],
        sandboxIdleSeconds: args["sandbox-idle-seconds"],
        caps: (parseCapArgs(args.cap) as { value: Partial<Caps> }).value,
        publicUrl: givenPublicUrl(args["public-url"]),
        allowHosts: args["allow-host"],
        log: (line) => process.stderr.write(`${line}\n`),
      });
    } catch (error) {
      // A fixture that cannot be read or built: the run cannot be carried out.
      const known = error instanceof FixtureError || error instanceof StateFileError;
      process.stderr.write(
        `retail-sim: ${known ? error.message : `cannot build the fixture: ${(error as Error).message}`}\n`,
      );
      process.exit(2);
    }
    let listening;
    try {
      listening = await sim.listen(args.port, args.host);
    } catch (error) {
      process.stderr.write(
        `retail-sim: ${error instanceof ExposedControlError ? exposedLine(error) : `cannot listen on ${args.host}:${args.port}: ${(error as Error).message}`}\n`,
      );
      process.exit(2);
    }
    if (sim.controlOpen && !isLoopback(listening.host))
      process.stderr.write(
        `retail-sim: warning: /_sim is served without a token on ${listening.host}, which other machines can reach (--insecure-control)\n`,
      );
    // Handlers first: a supervisor may signal as soon as it reads the ready line.
    let stopping = false;
    let finished = false;
    // Once the requests in flight are done (or the grace is over): save the state if asked, then exit.
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      const say = (line: string) => process.stderr.write(`${line}\n`);
      const saved = state === undefined ? 0 : saveState(sim, state, say);
      process.exit(Math.max(code, saved));
    };
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void sim.close({ graceSeconds: args["shutdown-grace-seconds"] }).then(({ cutOff }) => {
        // Exit 1: a client is left without the answer to a request it sent.
        if (cutOff > 0) process.stderr.write(`retail-sim: ${cutOffLine(cutOff, args["shutdown-grace-seconds"])}\n`);
        finish(cutOff > 0 ? 1 : 0);
      });
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    if (ancestry !== undefined) exitWithParent(stop, ancestry);
    if (args["pid-file"] !== undefined) {
      try {
        writePidFile(args["pid-file"]);
      } catch (error) {
        process.stderr.write(`retail-sim: cannot write the pid file: ${(error as Error).message}\n`);
        await sim.close();
        process.exit(2);
      }
    }
    // `{api_root}`: the public URL when one is given, else the URL it listens on.
    const creds = sim.credentials();
    if (args.json) {
      const { api_root, auth_url, stores, oauth_clients } = creds;
      const ready = { api_root, auth_url, stores, oauth_clients, listen_url: listening.url, pid: process.pid };
      // With --state, the line names the file (its consumers learn where the state is kept).
      if (args.state !== undefined) Object.assign(ready, { state: args.state });
      process.stdout.write(`${JSON.stringify(ready)}\n`);
    } else {
      process.stdout.write(banner(creds, args, listening.url, sim.world.env.clock.mode, state?.snapshot !== undefined));
    }
  },
};

function exposedLine(error: ExposedControlError): string {
  return `refusing to serve on ${error.why} Pass --control-token <secret> (or set RETAIL_SIM_CONTROL_TOKEN), --no-control, or --insecure-control to serve it open anyway.`;
}

function cutOffLine(cutOff: number, grace: number): string {
  const requests = cutOff === 1 ? "1 request was" : `${cutOff} requests were`;
  return `${requests} cut off unanswered: the shutdown grace of ${grace} s (--shutdown-grace-seconds) ran out`;
}

/** `--public-url`, else `RETAIL_SIM_PUBLIC_URL` (empty counts as unset). */
function givenPublicUrl(option: string | undefined): string | undefined {
  return option ?? (process.env.RETAIL_SIM_PUBLIC_URL || undefined);
}

function banner(creds: CredentialsView, args: ServeArgs, listenUrl: string, clock: string, restored: boolean): string {
  const from = restored ? `state ${args.state}` : `fixture ${args.fixture}`;
  const lines = [
    `retail-sim is ready at ${creds.api_root} (seed ${args.seed}, clock ${clock}, ${from})`,
    ...(listenUrl === creds.api_root ? [] : [`  listening ${listenUrl}`]),
    `  pid       ${process.pid}`,
    `  auth_url  ${creds.auth_url}`,
    args.control ? `  control   ${creds.api_root}/_sim` : "  control   off",
    args.state === undefined
      ? "  state     in memory only, gone at exit (--state FILE saves it at a clean stop)"
      : `  state     ${args.state} (${restored ? "restored" : "new"}; saved there at a clean stop)`,
    "",
  ];
  for (const store of creds.stores) {
    lines.push(`Store ${store.prefix} (${store.name}, plan ${store.plan}, ${store.status}): ${store.base_url}`);
    const width = Math.max(...store.keys.map((k) => k.name.length));
    for (const key of store.keys)
      lines.push(`  ${key.name.padEnd(width)}  ${key.token}  [${key.scopes.join(" ") || "no scope"}]`);
    lines.push("");
  }
  for (const client of creds.oauth_clients) {
    lines.push(`OAuth client ${client.name}: client_id ${client.client_id} client_secret ${client.client_secret}`);
    lines.push(`  redirect_uris ${client.redirect_uris.join(" ")}`);
  }
  lines.push("", "Press Ctrl+C to stop.", "");
  return lines.join("\n");
}
