import type { CommandModule } from "yargs";
import type { CoverageArgs, CoverageFormat, Thresholds } from "./coverage-run.js";

// retail-sim coverage (docs/interfaces.md, `retail-sim coverage`). Its work (fetching, the renderers) is in
// coverage-run.ts and loads only when this command runs, so `serve` starts without it.

const COVERAGE_FORMATS: readonly CoverageFormat[] = ["md", "html", "json"];

const THRESHOLDS: readonly (keyof Thresholds)[] = [
  "min",
  "min-operations",
  "min-statuses",
  "min-error-codes",
  "min-branches",
];

const isPercent = (n: number | undefined) => n === undefined || (Number.isFinite(n) && n >= 0 && n <= 100);

export const coverageCommand: CommandModule<object, CoverageArgs> = {
  command: "coverage",
  describe: "Fetch the spec coverage of a test run from a control plane and write its reports",
  builder: (y) =>
    y
      .option("from", {
        type: "string",
        array: true,
        demandOption: true,
        describe:
          "a control URL (http://HOST:PORT/_sim, .../_sim/sandboxes/ID or .../_sim/runs/RUN), whose /coverage is read, or a saved coverage.json; repeat it to add several up",
      })
      .option("out", { type: "string", default: "reports/coverage", describe: "where the reports go" })
      .option("control-token", {
        type: "string",
        describe: "the control plane's token, if it is protected (serve --control-token)",
      })
      .option("min", {
        type: "number",
        describe: "exit 1 when the overall coverage (the mean of the four kinds' percents) is below this percent",
      })
      .option("min-operations", {
        type: "number",
        describe: "exit 1 when the operations' coverage is below this percent",
      })
      .option("min-statuses", { type: "number", describe: "exit 1 when the statuses' coverage is below this percent" })
      .option("min-error-codes", {
        type: "number",
        describe: "exit 1 when the error codes' coverage is below this percent",
      })
      .option("min-branches", {
        type: "number",
        describe: "exit 1 when the rule branches' coverage is below this percent",
      })
      .option("format", { type: "string", default: "md,html,json", describe: "report formats: md, html, json" })
      .check((a) => {
        if (a.from.some((from) => String(from).trim() === "")) throw new Error("--from needs a control URL or a file");
        for (const option of THRESHOLDS)
          if (!isPercent(a[option])) throw new Error(`--${option} must be a percent from 0 to 100`);
        const formats = a.format.split(",");
        const bad = formats.filter((f) => !(COVERAGE_FORMATS as readonly string[]).includes(f));
        if (bad.length > 0)
          throw new Error(`unknown --format ${bad.join(", ")}; choose from ${COVERAGE_FORMATS.join(", ")}`);
        return true;
      }),
  handler: async (args) => {
    const { runCoverage } = await import("./coverage-run.js");
    process.exit(await runCoverage(args));
  },
};
