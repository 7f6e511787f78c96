import { readFileSync } from "node:fs";
import type { CommandModule } from "yargs";
import { parseEnv } from "node:util";
import { parseOAuthClient, parseStoreKey, resolveCredentials } from "../../conformance/credentials.js";
// The suite (fast-check, undici, every rule) loads only when this command runs, so `serve` starts fast.
const FORMATS = ["json", "junit", "html", "md"] as const;
type Format = (typeof FORMATS)[number];

interface ConformanceArgs {
  target?: string;
  token?: string;
  control?: string;
  "control-token"?: string;
  seed: number;
  runs: number;
  rules?: string;
  rate?: number;
  out: string;
  format: string;
  replay?: string;
  key?: string[];
  "extra-token"?: string[];
  "other-store-token"?: string;
  "revoked-token"?: string;
  "lite-token"?: string;
  "oauth-client"?: string;
  "oauth-redirect-uri"?: string;
  "oauth-user"?: string;
  patient?: number;
  timeout: number;
  credentials?: string;
  "max-time"?: number;
  "max-failures"?: number;
  flaky: string;
}

/** The environment the credentials come from: the process's, over a credentials file's (NAME=VALUE lines). */
function credentialEnv(file: string | undefined): Record<string, string | undefined> {
  if (file === undefined) return process.env;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`--credentials ${file} cannot be read: ${(error as Error).message}`);
  }
  return { ...parseEnv(text), ...process.env };
}

/** The run's credentials from the options, the environment and the credentials file. */
function credentialsOf(a: ConformanceArgs) {
  return resolveCredentials(
    {
      token: a.token,
      controlToken: a["control-token"],
      key: a.key,
      extraToken: a["extra-token"],
      otherStoreToken: a["other-store-token"],
      revokedToken: a["revoked-token"],
      liteToken: a["lite-token"],
      oauthClient: a["oauth-client"],
      oauthRedirectUri: a["oauth-redirect-uri"],
      oauthUser: a["oauth-user"],
    },
    credentialEnv(a.credentials),
  );
}

function version(): string {
  for (const up of ["../../package.json", "../../../package.json"]) {
    try {
      return (JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as { version: string }).version;
    } catch {
      // try the next place
    }
  }
  return "0.0.0";
}

const MARK = { passed: "\u2714", failed: "\u2718", flaky: "~", skipped: "-" } as const;

export const conformanceCommand: CommandModule<object, ConformanceArgs> = {
  command: "conformance",
  describe: "Run the conformance suite against the in-process simulator or a deployment",
  builder: (y) =>
    y
      .option("target", { type: "string", describe: "base_url of a deployment (left out: an in-process simulator)" })
      .option("token", { type: "string", describe: "a full-scope API key or access token of the target" })
      .option("control", { type: "string", describe: "the target's control plane (/_sim), if it has one" })
      .option("control-token", {
        type: "string",
        describe: "the control plane's token, if it is protected (serve --control-token)",
      })
      .option("seed", { type: "number", default: 1, describe: "seed of every generated case" })
      .option("runs", { type: "number", default: 20, describe: "cases per property" })
      .option("rules", { type: "string", describe: "comma-separated globs over rule ids, e.g. 'pagination.*'" })
      .option("rate", { type: "number", describe: "requests per minute at most (live targets)" })
      .option("out", { type: "string", default: "reports", describe: "where reports go" })
      .option("format", { type: "string", default: "json,junit,html,md", describe: "report formats" })
      .option("replay", {
        type: "string",
        describe: "fast-check path of a counterexample to replay (with --seed and --rules)",
      })
      .option("key", {
        type: "string",
        array: true,
        describe: "a key of the store with chosen scopes, as SCOPES=TOKEN (catalog:read=..., none=...); repeatable",
      })
      .option("extra-token", {
        type: "string",
        array: true,
        describe: "another full-scope key of the store: a second credential and more rate budget; repeatable",
      })
      .option("other-store-token", {
        type: "string",
        describe: "a key of another store, as PREFIX=TOKEN (tenant isolation)",
      })
      .option("revoked-token", { type: "string", describe: "a revoked key of the store" })
      .option("lite-token", { type: "string", describe: "a key of a store on the Lite plan, as PREFIX=TOKEN" })
      .option("oauth-client", { type: "string", describe: "an OAuth client's CLIENT_ID:CLIENT_SECRET" })
      .option("oauth-redirect-uri", { type: "string", describe: "a redirect URI registered for --oauth-client" })
      .option("oauth-user", {
        type: "string",
        describe: "a merchant user of the store who may consent, as EMAIL:PASSWORD: signs in at the consent screen",
      })
      .option("patient", {
        type: "number",
        describe:
          "without --control: minutes the whole run may take; rules whose clock moves by minutes wait in real time within them",
      })
      .option("model", {
        type: "boolean",
        default: true,
        describe:
          "compare every answer with the model (the simulator in lockstep); --no-model: the rules and ambient checks only",
      })
      .option("timeout", {
        type: "number",
        default: 30,
        describe: "seconds a request may take before it counts as unanswered",
      })
      .option("credentials", {
        type: "string",
        describe:
          "a file of NAME=VALUE lines (RETAIL_TOKEN, RETAIL_KEY_1, ...) the credentials come from; the environment's variables win",
      })
      .option("max-time", {
        type: "number",
        describe:
          "seconds the run may take: then it stops starting rules, cleans up and reports (exit 2 unless a rule failed)",
      })
      .option("max-failures", { type: "number", describe: "stop after this many failed rules (fail fast)" })
      .option("flaky", {
        type: "string",
        default: "warn",
        choices: ["warn", "fail"],
        describe:
          "whether a rule that failed, then passed when run again, fails the run (fail) or is reported only (warn)",
      })
      .check((a) => {
        if (a.replay !== undefined && !/^\d+(:\d+)*$/.test(a.replay))
          throw new Error(
            `--replay takes fast-check's path of a counterexample (numbers separated by colons, as a report prints it), not ${JSON.stringify(a.replay)}`,
          );
        if (a.replay !== undefined && a.rules === undefined)
          throw new Error("--replay goes with --rules naming the rule it replays");
        if (!(a.timeout > 0)) throw new Error("--timeout must be a positive number of seconds");
        if (a["max-time"] !== undefined && !(a["max-time"] > 0))
          throw new Error("--max-time must be a positive number of seconds");
        if (a["max-failures"] !== undefined && !(Number.isInteger(a["max-failures"]) && a["max-failures"] > 0))
          throw new Error("--max-failures must be a positive integer");
        const given = credentialsOf(a);
        const c = given.credentials;
        if (c.otherStore !== undefined) parseStoreKey(c.otherStore, "--other-store-token");
        if (c.lite !== undefined) parseStoreKey(c.lite, "--lite-token");
        if (c.oauthClient !== undefined) parseOAuthClient(`${c.oauthClient.client_id}:${c.oauthClient.client_secret}`);
        if (a.target !== undefined && given.token === undefined)
          throw new Error("--target needs --token, or RETAIL_TOKEN in the environment or the --credentials file");
        if (a.patient !== undefined && !(a.patient > 0))
          throw new Error("--patient takes a positive number of minutes");
        for (const [name, url] of [
          ["--target", a.target],
          ["--control", a.control],
        ] as const) {
          if (url !== undefined && !/^https?:\/\/[^/]/.test(url))
            throw new Error(`${name} must be an http(s) URL, e.g. http://127.0.0.1:4747/demo/v1`);
        }
        if (!Number.isInteger(a.seed) || a.seed < 0 || a.seed > 4294967295)
          throw new Error("--seed must be an integer from 0 to 4294967295");
        if (a.control !== undefined && a.target === undefined) throw new Error("--control goes with --target");
        const bad = a.format.split(",").filter((f) => !(FORMATS as readonly string[]).includes(f));
        if (bad.length > 0) throw new Error(`unknown --format ${bad.join(", ")}; choose from ${FORMATS.join(", ")}`);
        if (!Number.isInteger(a.runs) || a.runs < 1) throw new Error("--runs must be a positive integer");
        if (a.rate !== undefined && !(a.rate > 0)) throw new Error("--rate must be positive");
        return true;
      }),
  handler: async (args) => {
    const [
      { conformance },
      { RunAborted, UsageError, abortedReport },
      { writeReports },
      { exitCode, verdictLine, rerunNote },
      { runNotes },
      { stopSwitch },
    ] = await Promise.all([
      import("../../conformance/run.js"),
      import("../../conformance/runner.js"),
      import("../../conformance/report/write.js"),
      import("../../conformance/verdict.js"),
      import("../../conformance/report/run-notes.js"),
      import("../../conformance/run-state.js"),
    ]);
    const formats = args.format.split(",") as Format[];
    const { token, controlToken, credentials } = credentialsOf(args);
    // The reports are written after every rule, so a run that is stopped, or dies, still leaves them.
    let latest: import("../../conformance/types.js").Report | undefined;
    let written: string[] = [];
    const save = () => {
      if (!latest) return;
      try {
        written = writeReports(latest, args.out, formats);
      } catch (error) {
        process.stderr.write(
          `retail-sim conformance: could not write the reports to ${args.out}: ${(error as Error).message}\n`,
        );
      }
    };
    // A signal: the rule running stops at its next request, the report says what was done and which
    // signal stopped it; a second one ends at once.
    const stop = stopSwitch();
    const onSignal = (signal: NodeJS.Signals) => {
      if (stop.requested) {
        save();
        process.exit(130);
      }
      stop.request(signal);
      process.stderr.write(
        `retail-sim conformance: interrupted (${signal}); finishing the clean-up and writing the reports (again to stop now)\n`,
      );
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    // A stray promise of a rule must not end the run.
    process.on("unhandledRejection", (error) =>
      process.stderr.write(`retail-sim conformance: ${(error as Error)?.message ?? String(error)}\n`),
    );
    let report;
    try {
      report = await conformance({
        target: args.target,
        token,
        control: args.control,
        controlToken,
        seed: args.seed,
        runs: args.runs,
        rules: args.rules,
        rate: args.rate,
        replay: args.replay,
        credentials,
        ...(args.model ? {} : { model: false }),
        ...(args.patient !== undefined ? { patient: args.patient } : {}),
        // The default is left out of the report's options, so a replay command repeats only what was chosen.
        timeoutMs: args.timeout === 30 ? undefined : args.timeout * 1000,
        flaky: args.flaky === "fail" ? "fail" : "warn",
        ...(args["max-time"] ? { maxTimeMs: args["max-time"] * 1000 } : {}),
        ...(args["max-failures"] ? { maxFailures: args["max-failures"] } : {}),
        stop,
        version: version(),
        onRule: (r, i, total) => {
          const again = rerunNote(r) ? ` [${rerunNote(r)}]` : "";
          const note =
            r.status === "failed" || r.status === "flaky"
              ? ` — expected ${r.counterexample?.expected}; observed ${r.counterexample?.observed}${again}`
              : r.transport
                ? ` (${r.transport})`
                : r.status === "skipped"
                  ? ` (${r.reason})`
                  : "";
          process.stderr.write(
            `[${String(i + 1).padStart(String(total).length)}/${total}] ${MARK[r.status]} ${r.id}${note}\n`,
          );
        },
        onReport: (r) => {
          latest = r;
          save();
        },
        onWait: (w) => {
          const eta =
            w.left_seconds < 90
              ? `about ${w.left_seconds} s left`
              : `about ${Math.round(w.left_seconds / 60)} min left`;
          process.stderr.write(
            `        waiting ${w.seconds} s for ${w.why} (rule ${w.index + 1} of ${w.total}, ${w.rule}; ${eta})\n`,
          );
        },
      });
    } catch (error) {
      const reason =
        error instanceof RunAborted ? error.message : `the run stopped: ${(error as Error)?.stack ?? String(error)}`;
      process.stderr.write(`retail-sim conformance: ${reason}\n`);
      // Every run that was asked for leaves reports that say why it ended: a JUnit no CI parser reads as passed.
      if (!(error instanceof UsageError))
        latest ??= abortedReport(reason.split("\n")[0] as string, {
          target: args.target ?? `in-process simulator (seed ${args.seed})`,
          seed: args.seed,
          runs: args.runs,
          version: version(),
        });
      save();
      process.exit(2);
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
    latest = report;
    save();
    const model = report.model;
    if (model)
      process.stderr.write(
        model.start === "not started"
          ? `Model: ${model.note}\n`
          : `Model: compared ${model.compared} answers; reached rule branches ${model.coverage.branches.percent}%, error codes ${model.coverage.error_codes.percent}%.${model.note ? ` ${model.note}` : ""}\n`,
      );
    for (const note of runNotes(report)) process.stderr.write(`${note.replace(/`/g, "")}\n`);
    process.stdout.write(`${verdictLine(report)} Reports: ${written.join(", ")}\n`);
    // A target that never answered may still hold a socket open: the run is over, so the process ends.
    process.exit(exitCode(report));
  },
};
