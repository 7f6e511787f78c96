// Fuzzing support: Methods and paths, odd and malformed: path parameters of every kind, prefixes and
// segment mutations.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import type { Operation } from "../../contract/operation.js";
import { isUuid } from "../../kernel/random.js";
import type { FuzzContext, IdKind } from "./requests.js";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export const ODD_METHODS = [
  "get",
  "post",
  "Patch",
  "delete",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "CONNECT",
  "BREW",
  "PROPFIND",
  "MKCOL",
  "PURGE",
  "",
  " GET",
  "GET ",
  "G\u0000ET",
  "ÖPTIONS",
  "__proto__",
] as const;

const PREFIXES_ODD = [
  "/other/v1",
  "/lite/v1",
  "/nope/v1",
  "/demo/v2",
  "/DEMO/v1",
  "/%64emo/v1",
  "/demo%2Fv1",
  "/demo/V1",
  "",
  "/demo",
  "//demo/v1",
  "/demo//v1",
  "/demo/v1/",
  "/%zz/v1",
  "/%/v1",
  "/demo/v1/..",
  "/./demo/v1",
  "/__proto__/v1",
  "/constructor/v1",
  "/dëmo/v1",
] as const;

/** The store-relative first segment of an operation's path names the kind of its `{id}`. */
function kindOf(op: Operation, param: string): IdKind {
  if (param === "outlet_id") return "outlets";
  return op.path.split("/")[1] as IdKind;
}

/** Path parameter values that are no UUID, even once percent-decoded; none holds a raw `/`. */
export function nonUuidSegmentArb(ctx: FuzzContext): fc.Arbitrary<string> {
  const some = ctx.ids.products[0] as string;
  return fc
    .oneof(
      fc.constantFrom(
        "not-a-uuid",
        "..",
        ".",
        "%zz",
        "%",
        "%2F",
        "%00",
        "null",
        "undefined",
        "__proto__",
        "constructor",
        "0",
        "-1",
        "{id}",
        "%7Bid%7D",
        "'%20OR%201=1",
        "%3Cscript%3E",
      ),
      fc.constantFrom(
        `${some}x`,
        some.slice(0, -1),
        `${some}%00`,
        `{${some}}`,
        `%20${some}`,
        some.replace(/-/g, ""),
        `${some.slice(0, -1)}g`,
        `${some}%2F`,
        `${some}.json`,
      ),
      fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }).map(encodeURIComponent),
      fc.constantFrom(300, 5_000, 70_000).map((n) => "a".repeat(n)),
    )
    .filter((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        /* undecodable: no UUID */
      }
      return !isUuid(decoded) && !segment.includes("/");
    });
}

function paramArb(ctx: FuzzContext, op: Operation, param: string, mode: "any" | "valid"): fc.Arbitrary<string> {
  const own = ctx.ids[kindOf(op, param)];
  const valid = fc.constantFrom(...own);
  if (mode === "valid") return valid;
  const anyId = fc.constantFrom(...Object.values(ctx.ids).flat());
  return fc.oneof(
    { weight: 8, arbitrary: valid },
    { weight: 1, arbitrary: anyId },
    { weight: 1, arbitrary: fc.constantFrom(...ctx.foreignIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: valid.map((id) => id.toUpperCase()) },
    { weight: 1, arbitrary: valid.map((id) => [...id].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join("")) },
    { weight: 3, arbitrary: nonUuidSegmentArb(ctx) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 10 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("a/b", `${ctx.ids.products[0]}/inventory`, "..%2F..%2F_sim", "../../_sim/reset"),
    },
  );
}

/** An operation's path with its parameters filled in (`/products/{id}` under `/demo/v1`). */
export function opPath(op: Operation, values: readonly string[]): string {
  let i = 0;
  return op.path.replace(/\{[a-z_]+\}/g, () => values[i++] as string);
}

export function paramsArb(ctx: FuzzContext, op: Operation, mode: "any" | "valid"): fc.Arbitrary<string[]> {
  const names = [...op.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
  return names.length === 0 ? fc.constant([]) : fc.tuple(...names.map((n) => paramArb(ctx, op, n, mode)));
}

const PATH_MUTATIONS = [
  "none",
  "trailing-slash",
  "double-slash",
  "dot-dot",
  "dot",
  "encoded-static",
  "upper-static",
  "long-tail",
  "bad-escape",
  "lone-percent",
  "unicode",
  "random",
] as const;

function mutatePath(path: string, mutation: (typeof PATH_MUTATIONS)[number], extra: string): string {
  const parts = path.split("/");
  const last = parts.length - 1;
  switch (mutation) {
    case "none":
      return path;
    case "trailing-slash":
      return `${path}/`;
    case "double-slash":
      return path.replace(/\/(?=[^/]*$)/, "//");
    case "dot-dot":
      return `${path}/..`;
    case "dot":
      return path.replace(/\/(?=[^/]*$)/, "/./");
    case "encoded-static":
      parts[last] = [...(parts[last] ?? "")].map((ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
      return parts.join("/");
    case "upper-static":
      return path.toUpperCase();
    case "long-tail":
      return `${path}/${"x".repeat(70_000)}`;
    case "bad-escape":
      return `${path}%zz`;
    case "lone-percent":
      return `${path}/%`;
    case "unicode":
      return `${path}/${extra}`;
    case "random":
      return extra.startsWith("/") ? extra : `/${extra}`;
  }
}

/** Paths the fuzzer never sends: the control plane, the OAuth endpoints and stored images (not the API of the spec). */
export function isApiPath(path: string): boolean {
  return !(path === "/_sim" || path.startsWith("/_sim/") || path.startsWith("/oauth/") || path.startsWith("/images/"));
}

export function pathArb(ctx: FuzzContext, op: Operation, mode: "any" | "valid"): fc.Arbitrary<string> {
  const prefix =
    mode === "valid"
      ? fc.constant("/demo/v1")
      : fc.oneof(
          { weight: 12, arbitrary: fc.constant("/demo/v1") },
          { weight: 4, arbitrary: fc.constantFrom(...PREFIXES_ODD) },
        );
  const mutation =
    mode === "valid"
      ? fc.constant("none" as const)
      : fc.oneof(
          { weight: 14, arbitrary: fc.constant("none" as const) },
          { weight: 4, arbitrary: fc.constantFrom(...PATH_MUTATIONS) },
        );
  return fc
    .tuple(prefix, paramsArb(ctx, op, mode), mutation, fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }))
    .map(([p, values, m, extra]) => mutatePath(`${p}${opPath(op, values)}`, m, extra))
    .filter(isApiPath);
}

export function methodArb(op: Operation, mode: "any" | "valid"): fc.Arbitrary<string> {
  if (mode === "valid") return fc.constant(op.method);
  return fc.oneof(
    { weight: 16, arbitrary: fc.constant<string>(op.method) },
    { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_METHODS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
}
