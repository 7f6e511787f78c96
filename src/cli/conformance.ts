import { readFileSync } from "node:fs";
import type { CommandModule } from "yargs";
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
      .option("control-token", { type: "string", describe: "the control plane's token, if it is protected (serve --control-token)" })
      .option("seed", { type: "number", default: 1, describe: "seed of every generated case" })
      .option("runs", { type: "number", default: 20, describe: "cases per property" })
      .option("rules", { type: "string", describe: "comma-separated globs over rule ids, e.g. 'pagination.*'" })
      .option("rate", { type: "number", describe: "requests per minute at most (live targets)" })
      .option("out", { type: "string", default: "reports", describe: "where reports go" })
      .option("format", { type: "string", default: "json,junit,html,md", describe: "report formats" })
      .option("replay", { type: "string", describe: "fast-check path of a counterexample to replay (with --seed and --rules)" })
      .check((a) => {
        if (a.target !== undefined && a.token === undefined) throw new Error("--target needs --token");
        for (const [name, url] of [["--target", a.target], ["--control", a.control]] as const) {
          if (url !== undefined && !/^https?:\/\/[^/]/.test(url)) throw new Error(`${name} must be an http(s) URL, e.g. http://127.0.0.1:4747/demo/v1`);
        }
        if (!Number.isInteger(a.seed) || a.seed < 0 || a.seed > 4294967295) throw new Error("--seed must be an integer from 0 to 4294967295");
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
        version: version(),
        onRule: (r, i, total) => {
          const again = r.reproducible === undefined ? "" : r.reproducible ? " [failed again when re-run: reproducible]" : " [passed when re-run: flaky]";
          const note = r.status === "failed" ? ` — expected ${r.counterexample?.expected}; observed ${r.counterexample?.observed}${again}` : r.status === "skipped" ? ` (${r.reason})` : "";
          process.stderr.write(`[${String(i + 1).padStart(String(total).length)}/${total}] ${MARK[r.status]} ${r.id}${note}\n`);
        },
      });
    } catch (error) {
      process.stderr.write(`retail-sim conformance: ${error instanceof RunAborted ? error.message : (error as Error).message}\n`);
      process.exit(2);
    }
    if (report.rules.length === 0) {
      process.stderr.write(`retail-sim conformance: --rules ${args.rules} selects no rule\n`);
      process.exit(2);
    }
    const written = writeReports(report, args.out, formats);
    const s = report.summary;
    process.stdout.write(`${s.failed === 0 ? "PASSED" : "FAILED"}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped; ${s.covered} of ${s.catalog} rules covered. Reports: ${written.join(", ")}\n`);
    process.exitCode = s.failed === 0 ? 0 : 1;
  },
};
