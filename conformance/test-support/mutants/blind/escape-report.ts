// Runs the whole conformance catalog against each blind mutant and prints which ones the suite
// catches, which escape, and which runs crashed (threw) or hung instead of reporting.
//
//   npx tsx conformance/test-support/mutants/blind/escape-report.ts [--categories] [--without-control] [--runs N]
//                                                      [--part 1/2] [--verbose] [name ...]
//
// --categories runs the mutants written by category (categories/) instead of the first blind set.
// --without-control serves each one over HTTP and runs the suite without its control plane, with the
// credentials a QA team can make (a staging run; the model then starts from what the API shows).
// Names select mutants by substring (`paging`, `blind.limit-201-accepted`); --part k/n runs the k-th
// of n equal slices. The real simulator runs first: a rule that already fails there proves nothing,
// so it does not count as catching a mutant.

import { createSimulator, type SimulatorOptions } from "../../../../src/simulator.js";
import type { Credentials } from "../../../credentials.js";
import { conformance } from "../../../run.js";
import type { Report } from "../../../types.js";
import { mutantSimulator, type Mutant } from "../index.js";
import { ALL_CATEGORY_MUTANTS } from "./categories/index.js";
import { BLIND_MUTANTS } from "./index.js";

const TIMEOUT_MS = 300_000;
const SEED = 1;

type Outcome = { kind: "report"; report: Report } | { kind: "threw"; error: string } | { kind: "timeout" };

/** The suite against a simulator (a mutant's) served over HTTP, without its control plane: a staging run. */
async function withoutControl(
  make: (o: SimulatorOptions) => ReturnType<typeof createSimulator>,
  runs: number,
): Promise<Report> {
  const sim = make({ clock: "system", seed: SEED, rateLimits: false });
  const server = await sim.listen(0);
  try {
    const key = (name: string) => sim.token("demo", name);
    const revoked = sim.createKey("demo", { name: "revoked", scopes: ["catalog:read"] });
    sim.revokeKey(revoked.id);
    const client = sim.credentials().oauth_clients[0];
    const credentials: Credentials = {
      keys: ["catalog:read", "catalog:write", "inventory:read", "customers:read", "sales:read", "none"].map(
        (scope) => ({
          token: key(scope),
          scopes: scope === "none" ? [] : [scope],
        }),
      ),
      extra: [
        sim.createKey("demo", {
          name: "extra",
          scopes: ["catalog:write", "inventory:write", "customers:write", "sales:read"],
        }).token,
      ],
      otherStore: `other=${sim.token("other", "full")}`,
      revoked: revoked.token,
      lite: `lite=${sim.token("lite", "full")}`,
      ...(client
        ? {
            oauthClient: {
              client_id: client.client_id,
              client_secret: client.client_secret,
              redirect_uri: client.redirect_uris[0],
            },
          }
        : {}),
    };
    return await conformance({ target: `${server.url}/demo/v1`, token: key("full"), seed: SEED, runs, credentials });
  } finally {
    await sim.close();
  }
}

async function runOnce(runs: number, staging: boolean, mutant?: Mutant): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "timeout" }), TIMEOUT_MS);
  });
  const make = mutant ? mutantSimulator(mutant) : createSimulator;
  const run = (staging ? withoutControl(make, runs) : conformance({ seed: SEED, runs, simulator: make })).then(
    (report): Outcome => ({ kind: "report", report }),
    (e: unknown): Outcome => ({ kind: "threw", error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
  );
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface Args {
  names: string[];
  part?: [number, number];
  verbose: boolean;
  categories: boolean;
  staging: boolean;
  runs: number;
}

function parseArgs(argv: string[]): Args {
  const names: string[] = [];
  let part: [number, number] | undefined;
  let verbose = false;
  let categories = false;
  let staging = false;
  let runs = 5;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--verbose" || a === "-v") verbose = true;
    else if (a === "--categories") categories = true;
    else if (a === "--without-control") staging = true;
    else if (a === "--runs") runs = Number(argv[++i]);
    else if (a === "--part") {
      const m = /^(\d+)\/(\d+)$/.exec(argv[++i] ?? "");
      if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new Error("--part takes k/n, e.g. 1/2");
      part = [Number(m[1]), Number(m[2])];
    } else names.push(a);
  }
  return { names, part, verbose, categories, staging, runs };
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const pad = (s: string, n: number): string => (s.length >= n ? s : s + " ".repeat(n - s.length));

async function main(): Promise<void> {
  const { names, part, verbose, categories, staging, runs } = parseArgs(process.argv.slice(2));
  let mutants = (categories ? ALL_CATEGORY_MUTANTS : BLIND_MUTANTS).filter(
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
  const base = await runOnce(runs, staging);
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
  console.log(
    `blind mutants: ${mutants.length} (seed ${SEED}, runs ${runs}, ${staging ? "over HTTP without a control plane" : "in process with the control plane"}, timeout ${TIMEOUT_MS / 1000} s each)\n`,
  );

  const tally = { caught: 0, escaped: 0, crashed: 0 };
  const escaped: string[] = [];
  const width = Math.max(...mutants.map((m) => m.name.length));
  for (const m of mutants) {
    const started = Date.now();
    const out = await runOnce(runs, staging, m);
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
