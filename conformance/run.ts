import { createSimulator, type Simulator, type SimulatorOptions } from "../src/simulator.js";
import { CATALOG, selectRules } from "./rules/index.js";
import { runConformance, UsageError, type RunOptions } from "./runner.js";
import { httpTarget, inProcessTarget, type Target } from "./target.js";
import type { Report, ReportOptions } from "./types.js";
import type { Rule } from "./rule.js";
import { credentialOptions, type Credentials } from "./credentials.js";

export interface ConformanceOptions {
  /** A live deployment's base_url; left out, an in-process simulator. */
  readonly target?: string;
  readonly token?: string;
  readonly control?: string;
  /** The control plane's token (`retail-sim serve --control-token`), if it is protected. */
  readonly controlToken?: string;
  readonly seed?: number;
  readonly runs?: number;
  readonly rules?: string;
  readonly rate?: number;
  readonly replay?: string;
  readonly version?: string;
  /** Extra credentials for staging runs (keys by scope, more full keys, another store's key, ...). */
  readonly credentials?: Credentials;
  /** Milliseconds a request may take before it counts as unanswered (default 30 s). */
  readonly timeoutMs?: number;
  /** Set `requested` to stop the run (SIGINT): the report says what was done. */
  readonly stop?: RunOptions["stop"];
  readonly onReport?: RunOptions["onReport"];
  readonly onWait?: RunOptions["onWait"];
  /** For the in-process target: how to build the simulator (tests pass mutants here). */
  readonly simulator?: (options: SimulatorOptions) => Simulator;
  readonly onRule?: RunOptions["onRule"];
  readonly catalog?: readonly Rule[];
  /**
   * The strict profile: each rule holds the in-process simulator to its own choices where the spec
   * leaves one open (the rules' `choices`, docs/spec-choices.md) too. Refused with `target`: a correct
   * server may choose differently.
   */
  readonly strict?: boolean;
  /** Compare every answer with the model (default true); false runs the rules and ambient checks only. */
  readonly model?: boolean;
  readonly flaky?: RunOptions["flaky"];
  readonly maxFailures?: number;
  readonly maxTimeMs?: number;
  /** --patient MINUTES: without a control plane, rules whose clock moves wait in real time within this budget. */
  readonly patient?: number;
  /** The run's time and sleep (tests pass fakes: a patient rule then waits without real waiting). */
  readonly now?: RunOptions["now"];
  readonly sleep?: RunOptions["sleep"];
}

/** Runs the selected rules against the target and returns the report. */
export async function conformance(options: ConformanceOptions = {}): Promise<Report> {
  const seed = options.seed ?? 1;
  const catalog = options.catalog ?? CATALOG;
  const rules = selectRules(options.rules, catalog);
  // Nothing to run is a run that cannot be carried out, found before the target is touched.
  if (rules.length === 0)
    throw new UsageError(
      `--rules ${options.rules} selects no rule (rule ids look like ${catalog[0]?.id ?? "area.what"})`,
    );
  let target: Target;
  let token: string;
  if (options.target) {
    if (options.strict)
      throw new UsageError("strict holds the in-process simulator to its own choices; it never judges a --target");
    if (!options.token)
      throw new UsageError("--target needs --token, a full-scope API key or access token of the target");
    target = httpTarget(options.target, options.control, options.controlToken);
    token = options.token;
  } else {
    const sim = (options.simulator ?? createSimulator)({ clock: "manual", seed });
    target = inProcessTarget(sim, `in-process simulator (seed ${seed})`);
    token = sim.token("demo", "full");
  }
  try {
    return await runConformance({
      target,
      token,
      rules,
      catalogSize: catalog.length,
      seed,
      runs: options.runs ?? 20,
      replay: options.replay,
      rate: options.rate,
      version: options.version ?? "0.0.0",
      credentials: options.credentials,
      timeoutMs: options.timeoutMs,
      stop: options.stop,
      options: reportOptions(options),
      onRule: options.onRule,
      onReport: options.onReport,
      onWait: options.onWait,
      ...(options.model === false ? { model: false } : {}),
      ...(options.strict ? { strict: true } : {}),
      ...(options.flaky ? { flaky: options.flaky } : {}),
      ...(options.maxFailures ? { maxFailures: options.maxFailures } : {}),
      ...(options.maxTimeMs ? { maxTimeMs: options.maxTimeMs } : {}),
      ...(options.patient !== undefined ? { patientMinutes: options.patient } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(!options.target && !options.simulator ? { selfCheck: true } : {}),
    });
  } finally {
    await target.close?.();
  }
}

/** What a replay command must repeat: every option of the run, credentials named but never given. */
function reportOptions(o: ConformanceOptions): ReportOptions {
  const credentials = o.credentials ? credentialOptions(o.credentials).map((c) => c.option) : [];
  const redirect = o.credentials?.oauthClient?.redirect_uri;
  return {
    ...(o.target ? { target: o.target } : {}),
    ...(o.control ? { control: o.control } : {}),
    ...(o.controlToken ? { controlToken: true } : {}),
    runs: o.runs ?? 20,
    ...(o.model === false ? { model: false } : {}),
    ...(o.rate ? { rate: o.rate } : {}),
    ...(o.timeoutMs ? { timeout: Math.round(o.timeoutMs / 1000) } : {}),
    ...(o.patient !== undefined ? { patient: o.patient } : {}),
    credentials,
    ...(redirect ? { oauthRedirectUri: redirect } : {}),
  };
}
