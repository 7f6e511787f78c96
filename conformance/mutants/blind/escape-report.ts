// Runs the whole conformance catalog in process against each blind mutant and prints which ones
// the suite catches, which escape, and which runs crashed (threw) or hung instead of reporting.
//
//   npx tsx conformance/mutants/blind/escape-report.ts [--part 1/2] [--verbose] [name ...]
//
// Names select mutants by substring (`paging`, `blind.limit-201-accepted`); --part k/n runs the k-th
// of n equal slices (the full set takes a few minutes on two cores). The real simulator runs first:
// a rule that already fails there proves nothing, so it does not count as catching a mutant.

import { conformance } from "../../run.js";
import type { Report } from "../../types.js";
import { mutantSimulator, type Mutant } from "../index.js";
import { BLIND_MUTANTS } from "./index.js";

const TIMEOUT_MS = 120_000;
const SEED = 1;
const RUNS = 5;

type Outcome = { kind: "report"; report: Report } | { kind: "threw"; error: string } | { kind: "timeout" };

async function runOnce(mutant?: Mutant): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "timeout" }), TIMEOUT_MS);
  });
  const run = conformance({ seed: SEED, runs: RUNS, ...(mutant ? { simulator: mutantSimulator(mutant) } : {}) }).then(
    (report): Outcome => ({ kind: "report", report }),
    (e: unknown): Outcome => ({ kind: "threw", error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
  );
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function parseArgs(argv: string[]): { names: string[]; part?: [number, number]; verbose: boolean } {
  const names: string[] = [];
  let part: [number, number] | undefined;
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--verbose" || a === "-v") verbose = true;
    else if (a === "--part") {
      const m = /^(\d+)\/(\d+)$/.exec(argv[++i] ?? "");
      if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new Error("--part takes k/n, e.g. 1/2");
      part = [Number(m[1]), Number(m[2])];
    } else names.push(a);
  }
  return { names, part, verbose };
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const pad = (s: string, n: number): string => (s.length >= n ? s : s + " ".repeat(n - s.length));

async function main(): Promise<void> {
  const { names, part, verbose } = parseArgs(process.argv.slice(2));
  let mutants = BLIND_MUTANTS.filter(
    (m) => names.length === 0 || names.some((n) => m.name === n || m.name.includes(n)),
  );
  if (part) {
    const [k, n] = part;
    const size = Math.ceil(mutants.length / n);
    mutants = mutants.slice((k - 1) * size, k * size);
  }
  if (mutants.length === 0) {
    console.error(`no blind mutant matches ${names.join(" ")}`);
    process.exit(2);
  }

  const t0 = Date.now();
  const base = await runOnce();
  if (base.kind !== "report") {
    console.error(`the real simulator's run did not report: ${base.kind === "threw" ? base.error : "timed out"}`);
    process.exit(2);
  }
  const baseFailing = new Set(base.report.rules.filter((r) => r.status === "failed").map((r) => r.id));
  const s = base.report.summary;
  console.log(
    `real simulator: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped of ${s.catalog} rules (${secs(Date.now() - t0)})`,
  );
  if (baseFailing.size > 0)
    console.log(`  already failing on the real simulator (not counted as catching): ${[...baseFailing].join(", ")}`);
  console.log(`blind mutants: ${mutants.length} (seed ${SEED}, runs ${RUNS}, timeout ${TIMEOUT_MS / 1000} s each)\n`);

  const tally = { caught: 0, escaped: 0, crashed: 0 };
  const escaped: string[] = [];
  const width = Math.max(...mutants.map((m) => m.name.length));
  for (const m of mutants) {
    const started = Date.now();
    const out = await runOnce(m);
    const took = secs(Date.now() - started);
    if (out.kind !== "report") {
      tally.crashed++;
      const why = out.kind === "threw" ? `threw ${out.error}` : `no report within ${TIMEOUT_MS / 1000} s (hung)`;
      console.log(`CRASHED  ${pad(m.name, width)}  ${took}  ${why}`);
      continue;
    }
    const failing = out.report.rules.filter((r) => r.status === "failed" && !baseFailing.has(r.id));
    if (failing.length > 0) tally.caught++;
    else {
      tally.escaped++;
      escaped.push(m.name);
    }
    const verdict = failing.length > 0 ? "caught " : "ESCAPED";
    console.log(
      `${verdict}  ${pad(m.name, width)}  ${took}  crashed: no  ${failing.length > 0 ? `failing: ${failing.map((r) => r.id).join(", ")}` : ""}`,
    );
    if (verbose)
      for (const r of failing)
        console.log(`           ${r.id}: ${(r.reason ?? "").replace(/\s+/g, " ").slice(0, 200)}`);
    if (failing.length === 0 || verbose) console.log(`           breaks ${m.breaks}`);
  }
  console.log(
    `\n${tally.caught} caught, ${tally.escaped} escaped, ${tally.crashed} crashed of ${mutants.length} (${secs(Date.now() - t0)})`,
  );
  if (escaped.length > 0) console.log(`escaped: ${escaped.join(" ")}`);
  // A hung run leaves work pending; do not wait for it.
  process.exit(0);
}

await main();
