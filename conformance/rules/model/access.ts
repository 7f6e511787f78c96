import fc from "fast-check";
import {
  type CREDENTIAL_PROBLEMS,
  credentialDefect,
  credentialOf,
  defects,
  idDefect,
  keyDefect,
  made,
  scopeDefect,
  drawn,
  accessDefects,
} from "./defects.js";
import type { Sent } from "../../model/translate.js";
import { type Command, command, is2xx, type Session, withHeader } from "./session.js";
import { bodyOf, idOf, isObject, stringsOf } from "../../shapes.js";

// Generated requests about who may call and when: credentials of every kind on routes of every scope,
// keys made and revoked in the back office, store states, requests sent again under an Idempotency-Key
// (the same body, another body, the key in another case, another credential's), paths that do not
// exist, and the clock moved past the spec's boundaries (with a control plane).

const SCOPES = [
  "catalog:read",
  "catalog:write",
  "inventory:read",
  "inventory:write",
  "customers:read",
  "customers:write",
  "sales:read",
];

/** Requests of every scope, each as a path and method a credential can be tried on. */
const ROUTES: readonly {
  method: string;
  path: (s: Session) => string | undefined;
  scope: string | null;
  body?: unknown;
}[] = [
  { method: "GET", path: () => "/me", scope: null },
  { method: "GET", path: () => "/store", scope: null },
  { method: "GET", path: () => "/taxes", scope: null },
  { method: "GET", path: () => "/openapi.json", scope: null },
  { method: "GET", path: () => "/products?limit=2", scope: "catalog:read" },
  {
    method: "GET",
    path: (s) => s.pick("products", 0) && `/products/${s.pick("products", 0)?.id}`,
    scope: "catalog:read",
  },
  { method: "POST", path: () => "/tags", scope: "catalog:write", body: { name: "" } },
  {
    method: "GET",
    path: (s) => s.pick("products", 1) && `/products/${s.pick("products", 1)?.id}/inventory`,
    scope: "inventory:read",
  },
  { method: "POST", path: () => "/inventory/adjustments", scope: "inventory:write", body: { quantity: "x" } },
  { method: "GET", path: () => "/customers?limit=1", scope: "customers:read" },
  { method: "DELETE", path: () => "/customers/4b0c8a5e-9d1f-4e2a-8c3b-6a7d9e0f1a2b", scope: "customers:write" },
  { method: "GET", path: () => "/sales?limit=1", scope: "sales:read" },
  { method: "GET", path: () => "/no-such-path", scope: null },
  { method: "PUT", path: () => "/products", scope: null },
];

/** One route tried with a credential the session holds, with a defect or two. */
const tryRoute = fc
  .record({
    route: fc.nat({ max: ROUTES.length - 1 }),
    who: fc.nat(),
    defects: defects(
      drawn((s, n) => credentialDefect(s, n)),
      drawn((s, n) => scopeDefect(s, ROUTES[n % ROUTES.length]?.scope ?? "catalog:write", n)),
      drawn((s, n) => idDefect(s, n)),
      drawn((_s, n) => keyDefect(n, false)),
    ),
  })
  .map((c) => {
    const route = ROUTES[c.route] as (typeof ROUTES)[number];
    return command(
      `${route.method} route ${c.route} (${route.scope ?? "no scope"}) as credential ${c.who}, ${c.defects.length} defects`,
      async (s) => {
        const path = route.path(s);
        if (!path) return;
        const who = s.credentials[c.who % s.credentials.length];
        let req = s.request(route.method, path, route.body);
        if (who) req = withHeader(req, "authorization", `Bearer ${who.token}`);
        await s.sendWith(req, made(s, c.defects));
      },
    );
  });

/** Back office: a key with chosen scopes, or one revoked (control plane). */
const keys = fc
  .record({ op: fc.constantFrom("create", "create", "revoke"), scopes: fc.subarray(SCOPES), pick: fc.nat() })
  .map((c) =>
    command(`${c.op} key(${c.scopes.join(",") || "no scope"})`, async (s) => {
      if (!s.control) return;
      if (c.op === "create") {
        const made = await s.ctx.control("POST", `/stores/${encodeURIComponent(s.prefix)}/keys`, {
          name: s.name("key"),
          scopes: c.scopes,
        });
        const body = bodyOf(made);
        const doc: unknown = body?.key ?? body;
        const key = isObject(doc) ? doc : undefined;
        if (is2xx(made) && typeof key?.token === "string") {
          s.ctx.run.secrets.add(key.token);
          const scopes = new Set<string>(Array.isArray(key.scopes) ? stringsOf(key.scopes) : c.scopes);
          for (const sc of [...scopes]) if (sc.endsWith(":write")) scopes.add(sc.replace(":write", ":read"));
          s.credentials.push({
            token: key.token,
            scopes: [...scopes],
            label: `key ${c.scopes.join(",") || "none"}`,
            id: key.id === undefined ? undefined : String(key.id),
          });
        }
        return;
      }
      const made = s.credentials.filter((k) => k.id !== undefined);
      const key = made[c.pick % Math.max(1, made.length)];
      if (!key?.id) return;
      const revoked = await s.ctx.control("POST", `/keys/${encodeURIComponent(key.id)}/revoke`);
      if (is2xx(revoked)) {
        s.credentials.splice(s.credentials.indexOf(key), 1);
        s.credentials.push({ token: key.token, scopes: [], label: `refused: revoked key ${key.label}` });
      }
    }),
  );

/** A store state set in the back office, a request or two under it, and the state put back. */
const storeState = fc
  .record({
    state: fc.constantFrom(
      { status: "paused" },
      { status: "trial_decision_required" },
      { status: "plan_users_exceeded" },
      { status: "cancelled" },
      { status: "suspended" },
      { status: "not_found" },
      { plan: "lite" },
      { status: "paused", plan: "lite" },
    ),
    route: fc.nat({ max: ROUTES.length - 1 }),
    defects: accessDefects("catalog:write"),
  })
  .map((c) =>
    command(`store ${JSON.stringify(c.state)}, route ${c.route}, ${c.defects.length} defects`, async (s) => {
      if (!s.control) return;
      const store = `/stores/${encodeURIComponent(s.prefix)}`;
      const set = await s.ctx.control("PATCH", store, c.state);
      if (!is2xx(set)) return;
      try {
        const route = ROUTES[c.route] as (typeof ROUTES)[number];
        const path = route.path(s);
        if (path) await s.sendWith(s.request(route.method, path, route.body), made(s, c.defects));
        await s.send(s.request("POST", "/products", { name: "" }));
      } finally {
        await s.ctx.control("PATCH", store, { status: "active", plan: "growth" });
      }
    }),
  );

/** A keyed request sent again: the same body (a replay), another body, the key in another case, another credential. */
const again = fc
  .record({
    pick: fc.nat(),
    how: fc.constantFrom("same", "same", "other body", "key in another case", "other credential", "after a day"),
  })
  .map((c) =>
    command(`send again (${c.how}) keyed request ${c.pick}`, async (s) => {
      const sent = s.keyed[c.pick % Math.max(1, s.keyed.length)];
      if (!sent) return;
      let req = s.request(sent.method, sent.path, sent.body, { "idempotency-key": sent.key });
      if (c.how === "other body") {
        const body = JSON.parse(sent.body);
        req = s.request(
          sent.method,
          sent.path,
          { ...body, [Object.keys(body)[0] ?? "name"]: s.name("other") },
          { "idempotency-key": sent.key },
        );
      }
      if (c.how === "key in another case") {
        const flipped = [...sent.key]
          .map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()))
          .join("");
        req = withHeader(req, "idempotency-key", flipped);
      }
      if (c.how === "other credential") {
        const other = s.credentials.find((k) => k.token !== sent.token && k.scopes.length === 7);
        if (!other) return;
        req = withHeader(req, "authorization", `Bearer ${other.token}`);
      }
      if (c.how === "after a day") {
        if (!s.control) return;
        await s.ctx.control("POST", "/clock", { advance_seconds: 86_407 });
        await s.send(s.request("GET", "/me"));
      }
      await s.send(req);
    }),
  );

/**
 * The clock moved past a boundary the spec sets (an access token's hour, a code's ten minutes, a
 * record's 24 hours, a rate window, an idle credential's 90 days in two steps), never onto one: the
 * spec's words leave the exact instant open. The run's own key is used after each step, so it never idles.
 */
const clock = fc.constantFrom(7, 61, 301, 597, 607, 3_593, 3_607, 86_393, 86_407, 45 * 86_400 + 11).map((seconds) =>
  command(`clock +${seconds} s`, async (s) => {
    if (!s.control) return;
    await s.ctx.control("POST", "/clock", { advance_seconds: seconds });
    await s.send(s.request("GET", "/me"));
  }),
);

export const ACCESS_COMMANDS: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: tryRoute },
  { weight: 2, arbitrary: keys },
  { weight: 1, arbitrary: storeState },
  { weight: 3, arbitrary: again },
);
export const CLOCK_COMMANDS: fc.Arbitrary<Command> = clock;

/** Where a request of the spec's second kind of problem lies: its body, a path id, its key, or its path. */
const REQUEST_PROBLEMS = [
  "body not JSON",
  "a wrong field",
  "unknown id",
  "malformed id",
  "no key",
  "bad key",
  "no such path",
] as const;

/**
 * Two problems in one request where the spec fixes which answers: a refused credential before anything
 * (Authentication 1), a store that may not call or a missing scope before the request's own problems
 * ("A call without the needed scope answers 403 INSUFFICIENT_SCOPE").
 */
const twoProblems = fc
  .record({
    authority: fc.constantFrom(
      "no credential",
      "malformed",
      "unknown",
      "refused",
      "another store",
      "scope",
      "scope",
      "paused",
      "trial",
      "cancelled",
      "suspended",
      "not found",
      "lite",
    ),
    route: fc.constantFrom("adjustment", "product", "tag", "customer"),
    n: fc.nat(),
  })
  .map((c) =>
    command(`two problems: ${c.authority} and each request problem on ${c.route}`, async (s) => {
      const product = s.pick("products", c.n)?.id ?? "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
      const routes = {
        adjustment: {
          method: "POST",
          path: "/inventory/adjustments",
          scope: "inventory:write",
          body: {
            product_id: product,
            outlet_id: s.pick("outlets", c.n)?.id,
            quantity: 1,
            reason_id: s.pick("reasons", c.n)?.id,
          },
          key: true,
        },
        product: {
          method: "PATCH",
          path: `/products/${product}`,
          scope: "catalog:write",
          body: { name: s.name("renamed") },
          key: false,
        },
        tag: { method: "POST", path: "/tags", scope: "catalog:write", body: { name: s.name("tag") }, key: false },
        customer: {
          method: "DELETE",
          path: `/customers/${s.pick("customers", c.n)?.id ?? product}`,
          scope: "customers:write",
          body: undefined,
          key: false,
        },
      } as const;
      const r = routes[c.route];
      const base = s.request(r.method, r.path, r.body, r.key ? { "idempotency-key": s.name("key") } : {});
      const at = (path: string) => ({ ...base, url: `${s.ctx.run.target.baseUrl}${path}` });
      const problems: Record<(typeof REQUEST_PROBLEMS)[number], Sent | undefined> = {
        "body not JSON": r.body === undefined ? undefined : { ...base, body: "{not json" },
        "a wrong field":
          r.body === undefined
            ? undefined
            : { ...base, body: JSON.stringify({ ...r.body, [Object.keys(r.body)[0] as string]: [] }) },
        "unknown id": /[0-9a-f-]{36}/.test(r.path)
          ? at(r.path.replace(/[0-9a-f-]{36}/, "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"))
          : undefined,
        "malformed id": /[0-9a-f-]{36}/.test(r.path) ? at(r.path.replace(/[0-9a-f-]{36}/, "not-an-id")) : undefined,
        "no key": r.key ? withHeader(base, "idempotency-key", undefined) : undefined,
        "bad key": withHeader(base, "idempotency-key", "two words"),
        "no such path": at(`${r.path}/nothing-here`),
      };
      const requests = Object.values(problems).filter((p): p is Sent => p !== undefined);
      const states: Record<string, object> = {
        paused: { status: "paused" },
        trial: { status: "trial_decision_required" },
        cancelled: { status: "cancelled" },
        suspended: { status: "suspended" },
        "not found": { status: "not_found" },
        lite: { plan: "lite" },
      };
      const state = states[c.authority];
      if (state) {
        if (!s.control) return;
        const store = `/stores/${encodeURIComponent(s.prefix)}`;
        const set = await s.ctx.control("PATCH", store, state);
        if (!is2xx(set)) return;
        try {
          for (const req of requests) await s.send(req);
        } finally {
          await s.ctx.control("PATCH", store, { status: "active", plan: "growth" });
        }
        return;
      }
      const authority =
        c.authority === "scope"
          ? scopeDefect(s, r.scope, c.n)
          : credentialOf(s, c.authority as (typeof CREDENTIAL_PROBLEMS)[number], c.n);
      if (authority) for (const req of requests) await s.send(authority.apply(req));
    }),
  );

/** A key made in the back office, a keyed write with it, the key revoked, the same request again (control plane). */
const revokedReplay = fc.nat().map((n) =>
  command(`revoked key replays (${n})`, async (s) => {
    if (!s.control) return;
    const made = await s.ctx.control("POST", `/stores/${encodeURIComponent(s.prefix)}/keys`, {
      name: s.name("key"),
      scopes: SCOPES,
    });
    const key = bodyOf(made);
    const token = key?.token;
    if (!is2xx(made) || typeof token !== "string") return;
    s.ctx.run.secrets.add(token);
    const req = withHeader(
      s.request("POST", "/tags", { name: s.name("tag") }, { "idempotency-key": s.name("key") }),
      "authorization",
      `Bearer ${token}`,
    );
    const first = await s.send(req);
    const tag = idOf(first);
    if (is2xx(first) && tag !== undefined) s.ctx.track(`/tags/${tag}`);
    await s.ctx.control("POST", `/keys/${encodeURIComponent(String(key?.id))}/revoke`);
    await s.send(req);
    s.credentials.push({ token, scopes: [], label: "refused: revoked key" });
  }),
);

/**
 * Keys at the edges of "1 to 255 printable characters without spaces" and keys that differ only in
 * case (two keys, each remembered on its own), each on a route that takes an optional key.
 */
const keyForms = fc.constantFrom("255 characters", "case", "empty", "256 characters", "one character").map((form) =>
  command(`Idempotency-Key ${form}`, async (s) => {
    const stem = s.name("k").replace(/[^A-Za-z0-9-]/g, "");
    const key =
      form === "255 characters"
        ? stem.padEnd(255, "K")
        : form === "256 characters"
          ? stem.padEnd(256, "K")
          : form === "empty"
            ? ""
            : form === "one character"
              ? "Q"
              : `${stem}-Mixed`;
    const create = (k: string) => s.send(s.request("POST", "/tags", { name: s.name("tag") }, { "idempotency-key": k }));
    const first = await create(key);
    const tag = idOf(first);
    if (is2xx(first) && tag !== undefined) s.ctx.track(`/tags/${tag}`);
    if (form === "case") {
      const second = await create(key.toUpperCase());
      const other = idOf(second);
      if (is2xx(second) && other !== undefined) s.ctx.track(`/tags/${other}`);
    }
  }),
);

/** A key with some scopes left unused while the clock passes 90 days (the run's key used between), then tried on a route it lacks. */
const idleKey = fc.subarray(SCOPES, { maxLength: 3 }).map((scopes) =>
  command(`idle key(${scopes.join(",") || "no scope"})`, async (s) => {
    if (!s.control) return;
    const made = await s.ctx.control("POST", `/stores/${encodeURIComponent(s.prefix)}/keys`, {
      name: s.name("key"),
      scopes,
    });
    const token = bodyOf(made)?.token;
    if (!is2xx(made) || typeof token !== "string") return;
    s.ctx.run.secrets.add(token);
    for (let i = 0; i < 2; i++) {
      await s.ctx.control("POST", "/clock", { advance_seconds: 45 * 86_400 + 11 });
      await s.send(s.request("GET", "/me"));
    }
    await s.send(
      withHeader(
        s.request("DELETE", "/customers/4b0c8a5e-9d1f-4e2a-8c3b-6a7d9e0f1a2b"),
        "authorization",
        `Bearer ${token}`,
      ),
    );
  }),
);

/** After a long time (two steps of 45 days, the run's key used between), a key made then used at once. */
const lateKey = fc.subarray(SCOPES, { minLength: 1, maxLength: 3 }).map((scopes) =>
  command(`a key made after 90 days (${scopes.join(",")})`, async (s) => {
    if (!s.control) return;
    for (let i = 0; i < 2; i++) {
      await s.ctx.control("POST", "/clock", { advance_seconds: 45 * 86_400 + 11 });
      await s.send(s.request("GET", "/me"));
    }
    const made = await s.ctx.control("POST", `/stores/${encodeURIComponent(s.prefix)}/keys`, {
      name: s.name("key"),
      scopes,
    });
    const token = bodyOf(made)?.token;
    if (!is2xx(made) || typeof token !== "string") return;
    s.ctx.run.secrets.add(token);
    await s.send(withHeader(s.request("GET", "/me"), "authorization", `Bearer ${token}`));
  }),
);

export const PROBLEM_COMMANDS: fc.Arbitrary<Command> = fc.oneof(
  { weight: 8, arbitrary: twoProblems },
  { weight: 1, arbitrary: revokedReplay },
  { weight: 2, arbitrary: keyForms },
);
export const IDLE_COMMANDS: fc.Arbitrary<Command> = fc.oneof(idleKey, lateKey);
