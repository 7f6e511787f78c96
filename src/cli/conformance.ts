import { readFileSync } from "node:fs";
import type { CommandModule } from "yargs";
import {
  parseKeyOption,
  parseOAuthClient,
  parseOAuthUser,
  parseStoreKey,
  type Credentials,
} from "../../conformance/credentials.js";
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

const MARK = { passed: "\u2714", failed: "\u2718", skipped: "-" } as const;

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
      .check((a) => {
        if (a.replay !== undefined && !/^\d+(:\d+)*$/.test(a.replay))
          throw new Error(
            `--replay takes fast-check's path of a counterexample (numbers separated by colons, as a report prints it), not ${JSON.stringify(a.replay)}`,
          );
        if (a.replay !== undefined && a.rules === undefined)
          throw new Error("--replay goes with --rules naming the rule it replays");
        if (!(a.timeout > 0)) throw new Error("--timeout must be a positive number of seconds");
        for (const k of a.key ?? []) parseKeyOption(k);
        if (a["other-store-token"] !== undefined) parseStoreKey(a["other-store-token"], "--other-store-token");
        if (a["lite-token"] !== undefined) parseStoreKey(a["lite-token"], "--lite-token");
        if (a["oauth-client"] !== undefined) parseOAuthClient(a["oauth-client"]);
        if (a["oauth-user"] !== undefined) parseOAuthUser(a["oauth-user"]);
        if (a.patient !== undefined && !(a.patient > 0))
          throw new Error("--patient takes a positive number of minutes");
        if (a.target !== undefined && a.token === undefined) throw new Error("--target needs --token");
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
    const [{ conformance }, { RunAborted }, { writeReports }] = await Promise.all([
      import("../../conformance/run.js"),
      import("../../conformance/runner.js"),
      import("../../conformance/report/write.js"),
    ]);
    const formats = args.format.split(",") as Format[];
    const credentials: Credentials = {
      keys: (args.key ?? []).map(parseKeyOption),
      extra: args["extra-token"] ?? [],
      ...(args["other-store-token"] ? { otherStore: args["other-store-token"] } : {}),
      ...(args["revoked-token"] ? { revoked: args["revoked-token"] } : {}),
      ...(args["lite-token"] ? { lite: args["lite-token"] } : {}),
      ...(args["oauth-client"]
        ? { oauthClient: parseOAuthClient(args["oauth-client"], args["oauth-redirect-uri"]) }
        : {}),
      ...(args["oauth-user"] ? { oauthUser: parseOAuthUser(args["oauth-user"]) } : {}),
    };
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
    // SIGINT: the rule running stops at its next request, the report says what was done; a second SIGINT ends at once.
    let stopNow = () => {};
    const stop = { requested: false, stopped: new Promise<void>((resolve) => (stopNow = resolve)) };
    const onSignal = () => {
      if (stop.requested) {
        save();
        process.exit(130);
      }
      stop.requested = true;
      stopNow();
      process.stderr.write(
        "retail-sim conformance: interrupted; finishing the clean-up and writing the reports (Ctrl-C again to stop now)\n",
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
        token: args.token,
        control: args.control,
        controlToken: args["control-token"],
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
        stop,
        version: version(),
        onRule: (r, i, total) => {
          const again =
            r.reproducible === undefined
              ? r.rerun
                ? ` [${r.rerun}]`
                : ""
              : r.reproducible
                ? " [failed again when re-run: reproducible]"
                : " [passed when re-run: flaky]";
          const note =
            r.status === "failed"
              ? ` — expected ${r.counterexample?.expected}; observed ${r.counterexample?.observed}${again}`
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
      process.stderr.write(
        `retail-sim conformance: ${error instanceof RunAborted ? error.message : `the run stopped: ${(error as Error)?.stack ?? String(error)}`}\n`,
      );
      save();
      process.exit(2);
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
    if (report.rules.length === 0) {
      process.stderr.write(`retail-sim conformance: --rules ${args.rules} selects no rule\n`);
      process.exit(2);
    }
    latest = report;
    save();
    const s = report.summary;
    const model = report.model;
    if (model)
      process.stderr.write(
        model.start === "not started"
          ? `Model: ${model.note}\n`
          : `Model: compared ${model.compared} answers; reached rule branches ${model.coverage.branches.percent}%, error codes ${model.coverage.error_codes.percent}%.${model.note ? ` ${model.note}` : ""}\n`,
      );
    process.stdout.write(
      `${s.failed === 0 ? (s.skipped === 0 ? "PASSED" : "PASSED, WITH RULES NOT CHECKED") : "FAILED"}: ${s.verdict} Reports: ${written.join(", ")}\n`,
    );
    // A target that never answered may still hold a socket open: the run is over, so the process ends.
    process.exit(s.failed > 0 ? 1 : report.interrupted ? 2 : 0);
  },
};
