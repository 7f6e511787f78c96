import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CoverageReport } from "../contract/journal.js";
import { coverageHtml } from "./coverage-html.js";
import {
  coverageMarkdown,
  coverageReportProblem,
  coverageSummary,
  mergeCoverage,
  OVERALL,
  percent,
} from "./coverage-report.js";

// retail-sim coverage's work: read the report (a control plane's /coverage, or a saved coverage.json),
// write its reports, print the summary, judge the thresholds. docs/interfaces.md, `retail-sim coverage`.

/** A request to the control plane that takes longer than this counts as unanswered. */
const TIMEOUT_MS = 30_000;

/** Why the report could not be had: exit 2, with this message. */
class Unavailable extends Error {}

export type CoverageFormat = "md" | "html" | "json";

/** The command's options, as yargs parses them. */
export interface CoverageArgs {
  /** One source or several, added up (yargs gives an array; the library may pass one string). */
  from: string | readonly string[];
  out: string;
  "control-token"?: string;
  min?: number;
  "min-operations"?: number;
  "min-statuses"?: number;
  "min-error-codes"?: number;
  "min-branches"?: number;
  format: string;
}

/** The thresholds of the command, each a percent of `totals` (docs/interfaces.md, `retail-sim coverage`). */
export type Thresholds = Partial<
  Pick<CoverageArgs, "min" | "min-operations" | "min-statuses" | "min-error-codes" | "min-branches">
>;

/** Each per-kind threshold: its option, the totals it judges, and their name in its sentence. */
export const KIND_THRESHOLDS = [
  { option: "min-operations", totals: "operations", name: "operation" },
  { option: "min-statuses", totals: "statuses", name: "status" },
  { option: "min-error-codes", totals: "error_codes", name: "error code" },
  { option: "min-branches", totals: "branches", name: "rule branch" },
] as const;

const FILES: Record<CoverageFormat, [string, (r: CoverageReport) => string]> = {
  md: ["coverage.md", coverageMarkdown],
  html: ["coverage.html", coverageHtml],
  json: ["coverage.json", (r) => `${JSON.stringify(r, null, 2)}\n`],
};

/** `{from}/coverage`, or `from` itself when it names the route already. */
export function coverageUrl(from: string): string {
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    throw new Unavailable(`--from ${from} is not a URL`);
  }
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/coverage")) url.pathname = `${url.pathname.replace(/\/+$/, "")}/coverage`;
  return url.href;
}

async function fetchReport(from: string, token: string | undefined): Promise<unknown> {
  const url = coverageUrl(from);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (error as Error).name === "TimeoutError"
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new Unavailable(`cannot reach ${url}: ${why}`);
  }
  const text = await res.text().catch(() => "");
  if (res.status !== 200) {
    const hint =
      res.status === 401 || res.status === 403
        ? " (is the control plane protected? pass its token with --control-token)"
        : res.status === 404
          ? " (is --from a control URL, http://HOST:PORT/_sim or http://HOST:PORT/_sim/sandboxes/ID, of a simulator with a /coverage route?)"
          : "";
    const body = text.replace(/\s+/g, " ").trim().slice(0, 200);
    throw new Unavailable(`GET ${url} answered ${res.status}${hint}${body ? `: ${body}` : ""}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Unavailable(`GET ${url} answered 200 but not JSON: ${text.slice(0, 80)}`);
  }
}

function readSaved(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Unavailable(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Unavailable(`${path} is not JSON`);
  }
}

/** One source's report: a control URL's /coverage, or a saved coverage.json. */
async function readReport(from: string, token: string | undefined): Promise<CoverageReport> {
  const value = /^https?:\/\//i.test(from) ? await fetchReport(from, token) : readSaved(from);
  const problem = coverageReportProblem(value);
  if (problem) throw new Unavailable(`${from} did not give a coverage report: ${problem}`);
  return value as CoverageReport;
}

/** The thresholds the report falls short of, one sentence each: overall first, then the kinds'. */
export function thresholdFailures(report: CoverageReport, thresholds: Thresholds): string[] {
  const failed: string[] = [];
  const { all } = report.totals;
  if (thresholds.min !== undefined && all.percent < thresholds.min)
    failed.push(`overall coverage ${percent(all)} (${OVERALL}) is below --min ${thresholds.min}%`);
  for (const k of KIND_THRESHOLDS) {
    const min = thresholds[k.option];
    const t = report.totals[k.totals];
    if (min !== undefined && t.percent < min)
      failed.push(`${k.name} coverage ${percent(t)} (${t.covered} of ${t.total}) is below --${k.option} ${min}%`);
  }
  return failed;
}

/** Runs the command; resolves with its exit code (0 met, 1 a threshold failed, 2 no report or no files). */
export async function runCoverage(args: CoverageArgs): Promise<number> {
  const say = (line: string) => process.stderr.write(`retail-sim coverage: ${line}\n`);
  const sources = (typeof args.from === "string" ? [args.from] : args.from).map(String);
  const reports: CoverageReport[] = [];
  try {
    for (const from of sources) reports.push(await readReport(from, args["control-token"]));
  } catch (error) {
    if (!(error instanceof Unavailable)) throw error;
    say(error.message);
    return 2;
  }
  // Several sources (a run's sandboxes, or two runs) are one report: each item's counts added up.
  const [only] = reports;
  const report = reports.length === 1 && only ? only : mergeCoverage(reports);
  const formats = [...new Set(args.format.split(","))] as CoverageFormat[];
  const written: string[] = [];
  try {
    mkdirSync(args.out, { recursive: true });
    for (const f of formats) {
      const [name, render] = FILES[f];
      const path = join(args.out, name);
      writeFileSync(path, render(report));
      written.push(path);
    }
  } catch (error) {
    say(`cannot write the reports to ${args.out}: ${(error as Error).message}`);
    return 2;
  }
  process.stdout.write(`${coverageSummary(report)}Reports: ${written.join(", ")}\n`);
  const failed = thresholdFailures(report, args);
  for (const line of failed) say(line);
  return failed.length > 0 ? 1 : 0;
}
