import type { RunState } from "./context.js";
import { BudgetExceeded, ChoiceBroken, type Mismatch, NoAnswer } from "./outcomes.js";
import { storeKeyParts } from "./credentials.js";
import { reproScript } from "./repro.js";
import type { Counterexample, Exchange } from "./types.js";

// What a report says about a failure: expected and observed, the requests (credentials redacted,
// bodies clipped so a report stays readable whatever the server sent), and a script that replays them.

export interface Found {
  readonly mismatch: Mismatch;
  readonly exchanges: readonly Exchange[];
  readonly seed: number;
  readonly path?: string;
  readonly input?: string;
}

/** A body in a report: enough to see what came back, never megabytes. */
const BODY_MAX = 4000;
const TEXT_MAX = 2000;

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;

/** Replaces every secret of the run, and anything sent as a Bearer or Basic credential, by `<redacted>`. */
export function scrubber(secrets: ReadonlySet<string>): (text: unknown) => string {
  // Longest first, so a secret that contains another is replaced whole.
  const known = [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  const encoded = known.flatMap((s) => [encodeURIComponent(s)].filter((e) => e !== s));
  return (value) => {
    let out = typeof value === "string" ? value : String(value ?? "");
    for (const s of [...known, ...encoded]) if (out.includes(s)) out = out.split(s).join("<redacted>");
    return out.replace(/\b(Bearer|Basic) (?!<redacted>)[\x21-\x7E]+/gi, "$1 <redacted>");
  };
}

const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]);

/** `Bearer abc` → `Bearer <redacted>`; a bare scheme word stays (it carries no credential); anything else is redacted whole. */
function redactCredential(value: string): string {
  const m = /^(\S+)\s+\S/.exec(value);
  if (m) return `${m[1]} <redacted>`;
  if (/^(Bearer|Basic|Digest)?$/i.test(value.trim())) return value;
  return "<redacted>";
}

/** Credentials never reach a report: not in headers, URLs, bodies, nor in what a rule says it observed. */
function redact(e: Exchange, scrub: (text: unknown) => string): Exchange {
  const headers = (h: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(h).map(([k, v]) => [
        k,
        CREDENTIAL_HEADERS.has(k.toLowerCase()) ? redactCredential(String(v)) : clip(scrub(v), TEXT_MAX),
      ]),
    );
  return {
    method: e.method,
    url: clip(scrub(e.url), TEXT_MAX),
    requestHeaders: headers(e.requestHeaders),
    ...(e.requestBody === undefined ? {} : { requestBody: clip(scrub(e.requestBody), BODY_MAX) }),
    status: e.status,
    responseHeaders: headers(e.responseHeaders),
    responseBody: clip(scrub(e.responseBody), BODY_MAX),
  };
}

/** The environment variables a reproduction reads its credentials from. */
export function reproEnv(run: RunState): [string, string, string][] {
  const c = run.credentials;
  const env: [string, string, string][] = [
    ["RETAIL_TOKEN", run.token, "a full-scope API key of the store (the one given to --token)"],
  ];
  if (run.target.controlToken)
    env.push(["RETAIL_CONTROL_TOKEN", run.target.controlToken, "the control plane's token (--control-token)"]);
  c.extra.forEach((t, i) => {
    env.push([`RETAIL_TOKEN_${i + 2}`, t, `the full key given as --extra-token number ${i + 1}`]);
  });
  c.keys.forEach((k, i) => {
    env.push([`RETAIL_KEY_${i + 1}`, k.token, `the key given to --key ${k.scopes.join(",") || "none"}`]);
  });
  if (c.otherStore)
    env.push([
      "RETAIL_OTHER_STORE_TOKEN",
      storeKeyParts(c.otherStore).token,
      "a key of another store (--other-store-token)",
    ]);
  if (c.revoked) env.push(["RETAIL_REVOKED_TOKEN", c.revoked, "the revoked key (--revoked-token)"]);
  if (c.lite) env.push(["RETAIL_LITE_TOKEN", storeKeyParts(c.lite).token, "a key of a Lite-plan store (--lite-token)"]);
  if (c.oauthClient)
    env.push(["RETAIL_OAUTH_CLIENT_SECRET", c.oauthClient.client_secret, "the OAuth client's secret (--oauth-client)"]);
  return env;
}

export function buildCounterexample(run: RunState, found: Found): Counterexample {
  const scrub = scrubber(run.secrets);
  const m = found.mismatch;
  const inProcess = !run.target.live;
  const curl = reproScript(found.exchanges, {
    baseUrl: run.target.baseUrl,
    controlUrl: run.target.controlUrl,
    runId: run.runId,
    env: reproEnv(run),
    scrub,
    defaultBaseUrl: inProcess ? "http://127.0.0.1:4747/demo/v1" : run.target.baseUrl,
    note: inProcess
      ? `against \`npx retail-sim --seed ${run.seed} --clock manual\`: RETAIL_TOKEN is the demo store's full key it prints, RETAIL_CONTROL_URL its /_sim`
      : undefined,
  });
  const chosen = found.exchanges.slice(-12);
  return {
    expected: clip(scrub(m.expected), TEXT_MAX),
    observed: clip(scrub(m.observed), TEXT_MAX),
    seed: found.seed,
    ...(found.path ? { path: found.path } : {}),
    ...(found.input ? { input: clip(scrub(found.input), TEXT_MAX) } : {}),
    requests: chosen.map((e) => redact(e, scrub)),
    curl,
  };
}

/** What a lost answer is called in a report: one cause for each way the transport loses one. */
export const NO_ANSWER_CAUSE = {
  dropped: "no answer: the connection was closed without one",
  timeout: "no answer within the time allowed (--timeout)",
  refused: "no answer: the connection was refused",
} as const;

/**
 * The cause a failure shares with others: an ambient check and what it expected (one broken envelope
 * fails many rules, and reads as one problem), a server fault, or the target not answering (by how).
 * A rule's own expectation is its own cause (undefined). A rule that ran out of requests has the cause
 * of the first expectation it saw fail, when that one has a cause.
 */
export function failureCause(m: Mismatch): { ambient?: string; cause?: string } {
  if (m.ambient)
    return { ambient: m.ambient.check, cause: m.ambient.cause ?? `${m.ambient.check}: expected ${m.ambient.expected}` };
  if (m instanceof NoAnswer) return { cause: NO_ANSWER_CAUSE[m.how] };
  if (m instanceof ChoiceBroken) return { cause: `the simulator's choice "${m.topic}" broken (strict profile)` };
  if (m instanceof BudgetExceeded) {
    const first = m.first ? failureCause(m.first) : {};
    return first.cause ? first : { cause: "rules ran out of their request budget (a cursor or list that never ends?)" };
  }
  return {};
}
