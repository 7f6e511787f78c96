import { createdPaths } from "./created.js";
import { apiRootOf } from "./target.js";
import type { Exchange } from "./types.js";

// A failure's requests as a shell script a person pastes: the credentials come from the environment
// ($RETAIL_TOKEN, $RETAIL_CONTROL_TOKEN, ...), never from the report; what a request needs from an
// earlier answer (the id of a product the rule created, a key, a code) is captured into a variable
// from that answer, so the script creates what it needs instead of naming rows the clean-up deleted;
// and the run's name tag becomes $RS_RUN, fresh for every paste.

export interface ReproSetting {
  readonly baseUrl: string;
  readonly controlUrl?: string;
  /** The run's tag in every name it wrote (`rsconf-<runId>-...`). */
  readonly runId: string;
  /** Secrets the environment provides, by variable: RETAIL_TOKEN → the run's token, ... */
  readonly env: ReadonlyArray<readonly [name: string, value: string, what: string]>;
  /** Replaces every other secret of the run (the reports' own redaction): never printed. */
  readonly scrub: (text: string) => string;
  /** What the script's default base URL is (an in-process run names the `retail-sim` a person starts). */
  readonly defaultBaseUrl: string;
  readonly note?: string;
}

type Part = string | { readonly v: string };

interface Produced {
  readonly value: string;
  /** A JavaScript expression over the parsed answer `j` that gives the value. */
  readonly expr: string;
  readonly from: number;
}

const MIN = 8;
/** Keys from the end of the failure, then whatever they need, up to this many requests. */
const CORE = 8;
const MAX = 20;

/** String values of an answer and how to reach each, URL parameters of string values included. */
function leaves(json: unknown, from: number): Produced[] {
  const out: Produced[] = [];
  const walk = (v: unknown, expr: string, depth: number, key = "") => {
    if (depth > 6 || out.length > 200) return;
    if (typeof v === "string") {
      if (v.length >= MIN) out.push({ value: v, expr, from });
      // A short version ("42") is only recognised as a JSON string, where a later body sends it back.
      else if (key === "version" && v !== "") out.push({ value: JSON.stringify(v), expr, from });
      if (/^https?:\/\/\S+\?/.test(v)) {
        try {
          for (const [k, p] of new URL(v).searchParams)
            if (p.length >= MIN)
              out.push({ value: p, expr: `new URL(${expr}).searchParams.get(${JSON.stringify(k)})`, from });
        } catch {
          // not a URL after all
        }
      }
    } else if (Array.isArray(v))
      v.slice(0, 50).forEach((x, i) => {
        walk(x, `${expr}[${i}]`, depth + 1);
      });
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) walk(x, `${expr}[${JSON.stringify(k)}]`, depth + 1, k);
  };
  walk(json, "j", 0);
  return out;
}

const requestText = (e: Exchange) => `${e.url}\n${Object.values(e.requestHeaders).join("\n")}\n${e.requestBody ?? ""}`;

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The exchanges worth replaying (the last ones, and every earlier one whose answer they use), and what each answer gave. */
export function chooseExchanges(exchanges: readonly Exchange[]): { chosen: number[]; produced: Produced[][] } {
  const chosen = new Set<number>();
  for (let i = Math.max(0, exchanges.length - CORE); i < exchanges.length; i++) chosen.add(i);
  const produced = exchanges.map((e, i) => leaves(parse(e.responseBody), i));
  const queue = [...chosen];
  while (queue.length > 0 && chosen.size < MAX) {
    const i = queue.shift() as number;
    const text = requestText(exchanges[i] as Exchange);
    for (let j = i - 1; j >= 0; j--) {
      if (chosen.has(j)) continue;
      if ((produced[j] ?? []).some((p) => text.includes(p.value))) {
        chosen.add(j);
        queue.push(j);
        if (chosen.size >= MAX) break;
      }
    }
  }
  return { chosen: [...chosen].sort((a, b) => a - b), produced };
}

const single = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function shellWord(parts: readonly Part[]): string {
  const merged: Part[] = [];
  for (const p of parts) {
    const last = merged[merged.length - 1];
    if (typeof p === "string" && typeof last === "string") merged[merged.length - 1] = last + p;
    else if (p !== "") merged.push(p);
  }
  if (merged.length === 0) return "''";
  return merged.map((p) => (typeof p === "string" ? single(p) : `"$${p.v}"`)).join("");
}

/** Splits `text` at every known value, longest first, into literal text and variable references. */
function substitute(text: string, known: ReadonlyArray<readonly [string, string]>): Part[] {
  let parts: Part[] = [text];
  for (const [value, name] of known) {
    if (value === "") continue;
    // A quoted short value keeps its quotes around the variable.
    const quoted = value.length > 1 && value.startsWith('"') && value.endsWith('"');
    const replacement: Part[] = quoted ? ['"', { v: name }, '"'] : [{ v: name }];
    parts = parts.flatMap((p) => {
      if (typeof p !== "string" || !p.includes(value)) return [p];
      const pieces = p.split(value);
      return pieces.flatMap((piece, i) => (i === 0 ? [piece] : [...replacement, piece]));
    });
  }
  return parts;
}

function variableName(expr: string, n: number): string {
  const keys = [...expr.matchAll(/\["([A-Za-z_][A-Za-z0-9_]*)"\]|get\("([A-Za-z_]+)"\)/g)].map((m) => m[1] ?? m[2]);
  const tail = keys
    .slice(-2)
    .join("_")
    .toUpperCase()
    .replace(/^DATA_/, "");
  return `${tail || "VALUE"}_${n}`;
}

/** The script: one line per statement. */
export function reproScript(exchanges: readonly Exchange[], s: ReproSetting): string[] {
  const { chosen, produced } = chooseExchanges(exchanges);
  const lines: string[] = [];
  if (s.note) lines.push(`# ${s.note}`);
  const needed = new Set<string>();
  const body: string[] = [];
  const known: [string, string][] = [];
  for (const [name, value] of s.env) if (value) known.push([value, name]);
  const captured = new Map<string, string>();
  // What the script creates, deleted at its end with the credential that created it: a paste leaves nothing behind.
  const cleanup: { id: string; path: string; auth?: string }[] = [];
  chosen.forEach((i, n) => {
    const e = exchanges[i] as Exchange;
    const made =
      e.status >= 200 && e.status < 300
        ? createdPaths(e.method, e.url, apiRootOf(s.baseUrl), s.baseUrl, parse(e.responseBody))
        : [];
    const ids = new Set(made.map((path) => decodeURIComponent(path.slice(path.lastIndexOf("/") + 1))));
    for (const path of made)
      cleanup.push({
        id: decodeURIComponent(path.slice(path.lastIndexOf("/") + 1)),
        path: path.slice(0, path.lastIndexOf("/") + 1),
        auth: e.requestHeaders.authorization,
      });
    // Values later chosen requests use, and the ids of rows it made, captured from this answer.
    const later = chosen.slice(n + 1).map((k) => requestText(exchanges[k] as Exchange));
    const captures = (produced[i] ?? []).filter(
      (p) =>
        !captured.has(p.value) &&
        !known.some(([v]) => v === p.value) &&
        (later.some((t) => t.includes(p.value)) || ids.has(p.value)),
    );
    const uniq = captures.filter((p, k) => captures.findIndex((q) => q.value === p.value) === k);
    const table: [string, string][] = [
      ...known,
      ...[...captured].map(([v, name]) => [v, name] as [string, string]),
      [s.baseUrl, "RETAIL_BASE_URL"],
      ...(s.controlUrl ? [[s.controlUrl, "RETAIL_CONTROL_URL"] as [string, string]] : []),
      [apiRootOf(s.baseUrl), "RETAIL_API_ROOT"],
      [s.runId, "RS_RUN"],
    ];
    table.sort((a, b) => b[0].length - a[0].length);
    const word = (text: string) => {
      const parts = substitute(text, table);
      for (const p of parts) if (typeof p !== "string") needed.add(p.v);
      return shellWord(parts.map((p) => (typeof p === "string" ? s.scrub(p) : p)));
    };
    const args = ["curl", uniq.length > 0 ? "-sS" : "-i", "-X", e.method, word(e.url)];
    for (const [k, v] of Object.entries(e.requestHeaders)) args.push("-H", word(`${k}: ${v}`));
    if (e.requestBody !== undefined) args.push("--data-raw", word(e.requestBody));
    if (uniq.length === 0) {
      body.push(args.join(" "));
      return;
    }
    const answer = `R${n + 1}`;
    body.push(`${answer}=$(${args.join(" ")}); printf '%s\\n' "$${answer}"`);
    for (const p of uniq) {
      const name = variableName(p.expr, captured.size + 1);
      captured.set(p.value, name);
      body.push(
        `${name}=$(printf '%s' "$${answer}" | node -p ${single(`const j = JSON.parse(require("fs").readFileSync(0, "utf8")); ${p.expr}`)})`,
      );
    }
  });
  const table: [string, string][] = [...known, [s.baseUrl, "RETAIL_BASE_URL"]];
  for (const c of cleanup) {
    const name = captured.get(c.id);
    if (!name) continue;
    const parts = substitute(`${s.baseUrl}${c.path}`, table);
    const auth = c.auth === undefined ? [] : substitute(`authorization: ${c.auth}`, table);
    for (const p of [...parts, ...auth]) if (typeof p !== "string") needed.add(p.v);
    const word = (ps: Part[]) => shellWord(ps.map((p) => (typeof p === "string" ? s.scrub(p) : p)));
    body.push(
      `curl -sS -o /dev/null -w 'clean-up: DELETE %{http_code}\\n' -X DELETE ${word([...parts, { v: name }])}${auth.length > 0 ? ` -H ${word(auth)}` : ""}`,
    );
  }
  for (const [name, , what] of s.env) if (needed.has(name)) lines.push(`: "\${${name}:?set ${name} to ${what}}"`);
  lines.push(`RETAIL_BASE_URL="\${RETAIL_BASE_URL:-${s.defaultBaseUrl}}"`);
  if (needed.has("RETAIL_API_ROOT")) lines.push(`RETAIL_API_ROOT="\${RETAIL_API_ROOT:-\${RETAIL_BASE_URL%/*/v1}}"`);
  if (needed.has("RETAIL_CONTROL_URL"))
    lines.push(`RETAIL_CONTROL_URL="\${RETAIL_CONTROL_URL:-\${RETAIL_BASE_URL%/*/v1}/_sim}"`);
  if (needed.has("RS_RUN")) lines.push(`RS_RUN="\${RS_RUN:-r$(date +%s)}"`);
  return [...lines, ...body];
}
