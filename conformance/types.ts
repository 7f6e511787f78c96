// The conformance suite's vocabulary: rules of the spec, what running one needs, and what it found.

export type Area =
  | "Envelope"
  | "Authentication"
  | "Scopes"
  | "Store states"
  | "Isolation"
  | "Pagination"
  | "Catalog"
  | "Inventory"
  | "Customers"
  | "Sales"
  | "Idempotency"
  | "Limits"
  | "OAuth"
  | "OpenAPI"
  | "Model";

export interface RuleNeeds {
  /** The target's control plane (/_sim): sales, store states, clock. */
  readonly control?: boolean;
  /** Moving the target's clock (a control plane with /_sim/clock). */
  readonly clock?: boolean;
  /** Writes that change shared data beyond what the run creates and cleans up. */
  readonly destructive?: boolean;
  /** With `control`: credentials that let the rule run without a control plane (staging), all of them. */
  readonly orCredentials?: readonly import("./credentials.js").CredentialNeed[];
  /**
   * With `clock`: how long the rule moves the clock in all when it waits in real time instead
   * (`--patient`, no control plane), and for which of the spec's time limits. Without it the moves are
   * too long to wait for (days) and only a control plane can make them. The rule's `control` is then
   * only its clock and the credentials in `orCredentials`.
   */
  readonly waits?: Waits;
}

/** Real time a rule waits when it cannot move the clock (conformance/patience.ts). */
export interface Waits {
  /** Seconds in all, the longest the target may ask for (a Retry-After) included. */
  readonly seconds: number;
  /** The spec's time limit waited for: a short budget checks each limit once before any twice. */
  readonly for: string;
}

/** A rule as the run plans, paces and reports it (`Rule` in rule.ts adds what it does). */
export interface RuleInfo {
  /** Stable id, `area.what`: the report, --rules and --replay name rules by it. */
  readonly id: string;
  readonly area: Area;
  readonly title: string;
  /** Where the rule comes from: the spec's section and the sentence itself. */
  readonly spec: { readonly section: string; readonly quote: string };
  readonly needs?: RuleNeeds;
  /** About how many requests one run costs (used to pace and to plan). */
  readonly cost: number;
  /** Where the spec is silent: what the rule accepts, shown in the report. */
  readonly leniency?: string;
  /**
   * The strict profile: the simulator's own choices where the spec leaves one open, each a topic of
   * docs/spec-choices.md (its first column, verbatim). `ctx.choice(topic, ...)` checks one on the
   * replies the rule already has, only in a strict run (the in-process simulator, `strict: true`).
   */
  readonly choices?: readonly string[];
}

export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Record<string, string>;
  readonly requestBody?: string;
  readonly status: number;
  readonly responseHeaders: Record<string, string>;
  readonly responseBody: string;
}

export interface Counterexample {
  readonly expected: string;
  readonly observed: string;
  /** fast-check's seed and path: `--seed S --replay PATH` runs exactly this case again. */
  readonly seed: number;
  readonly path?: string;
  /** The generated input of the minimal failing case, when the rule is a property. */
  readonly input?: string;
  readonly requests: readonly Exchange[];
  /** A shell script (one statement a line) that replays the requests: credentials from $RETAIL_TOKEN and the like. */
  readonly curl: readonly string[];
}

/** `flaky`: failed, then passed when run again (a live target). */
export type RuleStatus = "passed" | "failed" | "flaky" | "skipped";

export interface RuleResult {
  readonly id: string;
  readonly area: Area;
  readonly title: string;
  readonly status: RuleStatus;
  readonly spec_ref: string;
  readonly spec_quote: string;
  readonly leniency?: string;
  readonly reason?: string;
  /** For a skip: the option that would let the rule run (`--control`, `--key`, ...). */
  readonly unlock?: string;
  /** For a failure: the ambient check that saw it, when it was not the rule's own expectation. */
  readonly ambient?: string;
  /** For a failure: the cause it shares with other failures (an ambient check, no answer). */
  readonly cause?: string;
  /** Why a failure on a live target could not be run again. */
  readonly rerun?: string;
  readonly duration_ms: number;
  readonly requests: number;
  readonly counterexample?: Counterexample;
  /** On a live target a failure is run again: true when it failed again, false when it then passed. */
  readonly reproducible?: boolean;
  /** A rule that passed only when run again after the target lost an answer: what was lost. */
  readonly transport?: string;
  /** For a failure: the command that runs its case again (credentials from the environment). */
  readonly replay?: string;
  /** For a failure: the credential options its requests used (`--key catalog:read`, ...): all its replay needs. */
  readonly credentials?: readonly string[];
}

/** The options of a run, as a replay command repeats them (never a secret: credentials are named, not given). */
export interface ReportOptions {
  readonly target?: string;
  readonly control?: string;
  readonly controlToken?: boolean;
  readonly runs: number;
  /** False when the run compared nothing with the model (`--no-model`). */
  readonly model?: false;
  readonly rate?: number;
  readonly timeout?: number;
  /** --patient MINUTES: the budget within which rules whose clock moves waited in real time. */
  readonly patient?: number;
  /** The credential options given (`--key catalog:read`, `--extra-token`, ...), each once per use. */
  readonly credentials: readonly string[];
  /** The redirect URI given with the OAuth client (--oauth-redirect-uri): no secret. */
  readonly oauthRedirectUri?: string;
}

export interface Summary {
  readonly passed: number;
  readonly failed: number;
  /** Failed, then passed when run again: reported apart, and failing the run only with `--flaky fail`. */
  readonly flaky: number;
  readonly skipped: number;
  readonly covered: number;
  readonly catalog: number;
  /** What was established and what was not, in one sentence. */
  readonly verdict: string;
}

/** Rules not checked, grouped by what would let them run. */
export interface NotChecked {
  readonly unlock: string;
  readonly rules: readonly string[];
}

/** Failures that share one cause (an ambient check, no answer): one problem, not one per rule. */
export interface FailureGroup {
  readonly cause: string;
  readonly rules: readonly string[];
}

export interface CoverageCount {
  readonly covered: number;
  readonly total: number;
  readonly percent: number;
}

export interface ModelSection {
  /** `snapshot`: started from the target's state (control plane); `seeded`: from what the API shows; `not started`: see `note`. */
  readonly start: "snapshot" | "seeded" | "not started";
  /** Answers compared with the model's prediction. */
  readonly compared: number;
  /** Answers not compared, by why (requests in flight together, faults, no answer, other people's rows, ...). */
  readonly not_compared: Readonly<Record<string, number>>;
  /** Times the model started again from the target's state. */
  readonly restarts: number;
  /** Said when the comparison cannot prove anything (the target is the simulator itself). */
  readonly note?: string;
  /** What the run exercised on the target, counted by the model: operations, statuses, error codes, rule branches. */
  readonly coverage: {
    readonly operations: CoverageCount;
    readonly statuses: CoverageCount;
    readonly error_codes: CoverageCount;
    readonly branches: CoverageCount;
    /** Operations, error codes and rule branches never reached, each with its spec sentence where it has one. */
    readonly never_reached: readonly { readonly kind: string; readonly id: string; readonly title: string }[];
  };
}

export interface Report {
  readonly tool: { readonly name: "retail-sim conformance"; readonly version: string };
  readonly target: string;
  readonly seed: number;
  readonly runs: number;
  readonly options?: ReportOptions;
  readonly started_at: string;
  readonly duration_ms: number;
  readonly summary: Summary;
  /** True when the run was stopped before every rule ran. */
  readonly interrupted?: boolean;
  /** What stopped it: a signal (`SIGINT`, `SIGTERM`), `--max-time` or `--max-failures`. */
  readonly stopped_by?: string;
  /**
   * Why the run could not judge the target: the preflight found no API (unreachable, refused, a server
   * fault or a gateway's page), or most answers were server faults or none (an outage). Exit code 2.
   */
  readonly could_not_run?: string;
  /** `--flaky`: whether a flaky rule fails the run (`fail`) or is reported only (`warn`, the default). */
  readonly flaky_policy?: "fail" | "warn";
  /** What the transport did: requests retried after no answer, answers never had, rules run again, 5xx answers. */
  readonly transport?: TransportCount;
  /** What the run created and could not delete (the clean-up's deletes failed): path and what the target said. */
  readonly left_behind?: readonly { readonly path: string; readonly status: string }[];
  /** The path before the store prefix the target was found under (`/stg/eu`), when there is one. */
  readonly api_root?: string;
  /** How the run kept within the target's rate limits: real time spent waiting, and 429s it drew without asking. */
  readonly pacing: { readonly waited_ms: number; readonly unrequested_429: number };
  /** The model in lockstep (conformance/model/): what it compared, and which behaviours of the spec the run reached. */
  readonly model?: ModelSection;
  readonly not_checked: readonly NotChecked[];
  readonly failure_groups: readonly FailureGroup[];
  readonly rules: readonly RuleResult[];
}

/** Requests the transport lost (a dropped connection, a timeout) and what the run did about them. */
export interface TransportCount {
  /** Requests sent again after no answer (reads, keyed writes, the clean-up: safe to repeat). */
  retried: number;
  /** Requests that had no answer in the end (after their retries, or unsafe to repeat). */
  unanswered: number;
  /** Rules run again because a request of theirs had no answer. */
  rerun: number;
  /** Answers with a 5xx status. */
  server_errors: number;
  /** Answers of any kind. */
  answers: number;
}
