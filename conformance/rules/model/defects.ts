import fc from "fast-check";
import type { Sent } from "../../model/translate.js";
import { bodyOf, headerOf, type Defect, type Session, withBody, withHeader } from "./session.js";

// The ways a generated request is made wrong, each alone or two at once: its credential, its scope, a
// path id, its Idempotency-Key, a field of its body, a query parameter. Where the spec fixes which of
// two problems answers first (a credential before anything, a scope before the request's own
// problems) the model's answer must be the target's; elsewhere the target may answer either.

const RANDOM_ID = "7f3e2a10-0c4b-4d2e-9a6f-5b1c8d9e0f12";

const defect = (name: string, apply: (req: Sent) => Sent): Defect => ({ name, apply });

/** Another credential in the Authorization header (or none). */
const credential = (name: string, value: string | undefined): Defect =>
  defect(name, (req) => withHeader(req, "authorization", value));

export const CREDENTIAL_PROBLEMS = ["no credential", "malformed", "unknown", "refused", "another store"] as const;

/** A credential problem of this kind (a refused key or another store's when the session holds one, else an unknown one). */
export function credentialOf(s: Session, kind: (typeof CREDENTIAL_PROBLEMS)[number], n = 0): Defect {
  const refused = s.credentials.filter((c) => c.scopes.length === 0 && c.label.startsWith("refused"));
  const pick = refused[n % Math.max(1, refused.length)];
  switch (kind) {
    case "no credential":
      return credential("no credential", undefined);
    case "malformed":
      return credential("malformed credential", "Bearer");
    case "refused":
      if (pick) return credential(pick.label, `Bearer ${pick.token}`);
      break;
    case "another store":
      if (s.other) return credential("another store's key", `Bearer ${s.other.token}`);
      break;
  }
  return credential("unknown credential", `Bearer rsk_${s.name("unknown").replace(/[^A-Za-z0-9]/g, "")}`);
}

/** Credential problems: none, malformed, unknown, and those the session holds (refused, another store's). */
export function credentialDefect(s: Session, n: number): Defect {
  return credentialOf(
    s,
    CREDENTIAL_PROBLEMS[n % CREDENTIAL_PROBLEMS.length] as (typeof CREDENTIAL_PROBLEMS)[number],
    Math.floor(n / 5),
  );
}

/** A key of the store without the scope the operation needs (undefined when the session has none). */
export function scopeDefect(s: Session, scope: string | null, n: number): Defect | undefined {
  if (scope === null) return undefined;
  const key = s.credential(n, scope, true);
  return key && key.scopes.length > 0 ? credential(`${key.label} (no ${scope})`, `Bearer ${key.token}`) : undefined;
}

/** The path's id (the first UUID of the path, or the `at`-th) replaced. */
export function idDefect(s: Session, n: number, at = 0): Defect {
  const deleted = s.pick("products", n, (r) => !r.live)?.id;
  const kinds = [
    ["unknown id", RANDOM_ID],
    ["malformed id", "not-a-uuid"],
    ["upper-case unknown id", RANDOM_ID.toUpperCase()],
    ...(deleted ? [["deleted product's id", deleted]] : []),
    ...(s.other?.ids[0] ? [["another store's id", s.other.ids[0]]] : []),
  ] as const;
  const [name, id] = kinds[Math.abs(n) % kinds.length] as readonly [string, string];
  return defect(name, (req) => {
    const url = new URL(req.url);
    let seen = -1;
    url.pathname = url.pathname
      .split("/")
      .map((seg) => (/^[0-9a-f-]{36}$/i.test(seg) && ++seen === at ? encodeURIComponent(id) : seg))
      .join("/");
    return { ...req, url: url.toString() };
  });
}

/** Idempotency-Key problems (spec, Limits: "1 to 255 printable characters without spaces"). */
export function keyDefect(n: number, required: boolean): Defect {
  const options: Defect[] = [
    defect("empty Idempotency-Key", (req) => withHeader(req, "idempotency-key", "")),
    defect("Idempotency-Key with a space", (req) => withHeader(req, "idempotency-key", "two words")),
    defect("Idempotency-Key of 256 characters", (req) => withHeader(req, "idempotency-key", "k".repeat(256))),
    defect("Idempotency-Key with a control character", (req) => withHeader(req, "idempotency-key", "tab\there")),
    ...(required ? [defect("no Idempotency-Key", (req) => withHeader(req, "idempotency-key", undefined))] : []),
  ];
  return options[Math.abs(n) % options.length] as Defect;
}

/** A JSON value that is wrong for most fields: a value of another type than the field's. */
const WRONG = [null, "text", 1.5, true, [], {}, -1] as const;

/** One field of the body made wrong (`field` a dotted path), or the body itself. */
export function bodyDefect(n: number, fields: readonly string[]): Defect {
  const made = bodyDefectOf(n, fields);
  // Reads and deletes carry no body (spec-choices: bodies on GET and DELETE are ignored): nothing to make wrong.
  return { name: made.name, apply: (req) => (req.method === "GET" || req.method === "DELETE" ? req : made.apply(req)) };
}

function bodyDefectOf(n: number, fields: readonly string[]): Defect {
  const kinds = fields.length;
  const which = Math.abs(n) % (kinds + 3);
  if (which === kinds)
    return defect("an unknown property", (req) => withBody(req, { ...bodyOf(req), rsconf_unknown: 1 }));
  if (which === kinds + 1) return defect("a body that is not JSON", (req) => ({ ...req, body: "{not json" }));
  if (which === kinds + 2)
    return defect("a JSON array for a body", (req) => ({ ...req, body: `[${req.body ?? "{}"}]` }));
  const field = fields[which] as string;
  const wrong = WRONG[Math.abs(n >> 3) % WRONG.length];
  return defect(`${field} ${JSON.stringify(wrong)}`, (req) => {
    const body = structuredClone(bodyOf(req) ?? {});
    const path = field.split(".");
    let at: any = body;
    for (const part of path.slice(0, -1)) at = at?.[part];
    if (at !== null && typeof at === "object") at[path[path.length - 1] as string] = wrong;
    return withBody(req, body);
  });
}

/** Query problems of a list (spec, Endpoints: limit 1 to 200; Pagination 1 and 4). */
export function queryDefect(n: number): Defect {
  const options: [string, string][] = [
    ["limit 0", "limit=0"],
    ["limit 201", "limit=201"],
    ["limit not a number", "limit=ten"],
    ["an unreadable cursor", "cursor=%21%21not-a-cursor"],
    ["include_deleted with order=desc", "include_deleted=true&order=desc"],
    ["order sideways", "order=sideways"],
  ];
  const [name, query] = options[Math.abs(n) % options.length] as [string, string];
  return defect(name, (req) => ({ ...req, url: `${req.url}${req.url.includes("?") ? "&" : "?"}${query}` }));
}

/** A defect a command makes when it runs, from the session it runs in. */
export type Maker = (s: Session) => Defect | undefined;

/** A defect made from a drawn number, when the command runs. */
export const drawn = (make: (s: Session, n: number) => Defect | undefined): fc.Arbitrary<Maker> =>
  fc.nat().map(
    (n): Maker =>
      (s) =>
        make(s, n),
  );

/** Zero, one or two of the defects these arbitraries make, most often none. */
export const defects = (...makers: fc.Arbitrary<Maker>[]): fc.Arbitrary<Maker[]> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant<Maker[]>([]) },
    { weight: 3, arbitrary: fc.oneof(...makers).map((d): Maker[] => [d]) },
    { weight: 1, arbitrary: fc.tuple(fc.oneof(...makers), fc.oneof(...makers)).map((ds): Maker[] => [...ds]) },
  );

/** Zero, one or two of: a credential problem, a credential without `scope`, and the command's own `extra` defects. */
export const accessDefects = (scope: string, extra: fc.Arbitrary<Maker>[] = []): fc.Arbitrary<Maker[]> =>
  defects(
    drawn((s, n) => credentialDefect(s, n)),
    drawn((s, n) => scopeDefect(s, scope, n)),
    ...extra,
  );

/** The defects a session can make now (some need what it may not hold, such as a key without a scope). */
export const made = (s: Session, makers: readonly Maker[]): Defect[] =>
  makers.map((m) => m(s)).filter((d): d is Defect => d !== undefined);

export const hasKey = (req: Sent): boolean => headerOf(req, "idempotency-key") !== undefined;
