// The security matrix (issue "Robustness and security"), generated from the operations table
// (src/contract/operations): every operation of the table is a named case of every check, so a new
// operation is covered without touching this file. Written from the spec (retail-api-v1.md:
// Authentication, States and transitions (Credential), Scopes, Errors, Limits); the simulator is the
// thing under test. Time only moves through the manual clock; nothing sleeps.
//
// Failed authentications (401, 402, 403) count per address and credential (30 per 5 minutes) and per
// address (300), so the matrices below send each operation's failures from an address of its own.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { pathParams, type Operation } from "../contract/operation.js";
import { grants, SCOPES, type Scope } from "../contract/scopes.js";
import { createHash } from "node:crypto";
import type { Simulator } from "../simulator.js";
import { HANDLERS } from "./handlers/index.js";
import type { Handler } from "./handlers/types.js";
import { createApiHandler } from "./pipeline.js";
import type { SimRequest } from "./types.js";
import { call, makeSim, ORIGIN, type CallOptions, type Reply } from "../test-support/sim.js";
import {
  api,
  connect,
  fixture,
  forms,
  getAuthorizePage,
  getCode,
  refresh,
  submit,
  token as tokenRequest,
  type Fixture,
} from "../test-support/oauth.js";
import {
  ALL_OPERATIONS,
  bodyFor,
  control,
  createResources,
  fingerprint,
  label,
  leaked,
  paramKinds,
  pathFor,
  reachableMapKeys,
  reachableStrings,
  requestFor,
  unique,
  type BuiltRequest,
  type Ids,
} from "../test-support/security.js";
import { expectError } from "../test-support/errors.js";
import { withResponseCheck } from "../test-support/response-validation.js";

// Spies for the constant-time checks. They take effect only in the module graph loaded after
// vi.resetModules() (see "compared in constant time" below); every other test uses the ordinary graph,
// which the setup file loaded before these mocks existed. This file therefore never imports
// kernel/digest.ts statically.
const spies = vi.hoisted(() => ({
  safeEqual: [] as [string, string][],
  sha256: [] as string[],
  timingSafeEqual: [] as [number, number][],
}));
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      spies.timingSafeEqual.push([a.byteLength, b.byteLength]);
      return actual.timingSafeEqual(a, b);
    },
  };
});
vi.mock("../kernel/digest.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../kernel/digest.js")>();
  return {
    ...actual,
    sha256: (text: string) => {
      spies.sha256.push(text);
      return actual.sha256(text);
    },
    safeEqual: (a: string, b: string) => {
      spies.safeEqual.push([a, b]);
      return actual.safeEqual(a, b);
    },
  };
});

const OPS: readonly Operation[] = ALL_OPERATIONS;
/** SHA-256 in hex, computed here independently of kernel/digest.ts. */
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const DAY = 24 * 60 * 60;
const ALL_SCOPES = "catalog:write inventory:write customers:write sales:read";

/** The operation of the table that serves `method path` (path under `/{prefix}/v1`). */
function operationAt(method: string, path: string): Operation {
  const rest = path.replace(/^\/[^/]+\/v1/, "");
  const found = OPS.find(
    (op) => op.method === method && new RegExp(`^${op.path.replace(/\{[a-z_]+\}/g, "[^/]+")}$`).test(rest),
  );
  if (!found) throw new Error(`no operation serves ${method} ${path}`);
  return found;
}

/** Each operation once, with its index (for its own network address). */
const opCases = (ops: readonly Operation[]) => ops.map((op, i) => [label(op), { op, i }] as const);

/** A network address per matrix block and operation, so that failure counts never mix. */
const addr = (block: number, i: number) => `10.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`;

const outcome = (reply: Reply) => ({ status: reply.status, code: reply.json?.error?.code ?? null });

function send(sim: Simulator, req: BuiltRequest, options: CallOptions): Promise<Reply> {
  return call(sim, req.method, req.path, {
    body: req.body,
    ...options,
    headers: { ...req.headers, ...options.headers },
  });
}

/** Ids that exist nowhere (a v4 UUID for every kind): for requests whose refusal comes before any lookup. */
const NOWHERE: Ids = new Proxy(
  {},
  { get: (_t, key) => (typeof key === "string" ? "0b9d3a4e-5c1f-4e7a-9b2d-7f3e1a2c4d5e" : undefined) },
);

async function createKey(
  sim: Simulator,
  name: string,
  scopes: readonly string[] = SCOPES,
): Promise<{ id: string; token: string }> {
  const created = await control(sim, "POST", "/stores/demo/keys", { name, scopes });
  expect(created.status).toBe(201);
  return created.json;
}

async function advance(sim: Simulator, seconds: number): Promise<void> {
  const moved = await control(sim, "POST", "/clock", { advance_seconds: seconds });
  expect(moved.status).toBe(200);
}

// ------------------------------------------------------------------------------------------------
// 1 to 4: missing, malformed, unknown and revoked credentials

/**
 * Malformed Authorization headers. Each carries the valid `full` token where it can, so the refusal
 * is due to the shape alone. RFC 6750 2.1 / RFC 9110 11.1: `Bearer` (any case), one or more spaces,
 * then one token68 (printable ASCII without spaces); `bearer x` and `Bearer  x` are well formed
 * (src/engine/auth/authentication.test.ts, docs/spec-choices.md), so they are not here.
 */
const MALFORMED: [string, (token: string) => string][] = [
  ["`Bearer` alone", () => "Bearer"],
  ["`Bearer` and spaces, no token", () => "Bearer  "],
  ["the Basic scheme (`Basic abc`)", () => "Basic abc"],
  ["the Basic scheme carrying the real token", (t) => `Basic ${t}`],
  ["`bearer` glued to the token, no space", (t) => `bearer${t}`],
  ["a token with a space inside", (t) => `Bearer ${t.slice(0, 12)} ${t.slice(12)}`],
  ["the token followed by a second word", (t) => `Bearer ${t} extra`],
  ["a tab instead of a space after the scheme", (t) => `Bearer\t${t}`],
  ["the bare token, no scheme", (t) => t],
  ["another scheme (`Token`)", (t) => `Token ${t}`],
  ["`Bearer=` instead of a space", (t) => `Bearer=${t}`],
  ["two credentials in one header", (t) => `Bearer ${t}, Bearer ${t}`],
  ["a token of 600 characters", () => `Bearer ${"A".repeat(600)}`],
];

describe("Spec, Authentication 1 and Errors (UNAUTHORIZED: credential missing, malformed, unknown or revoked): every operation answers 401", () => {
  let sim: Simulator;
  let ids: Ids;
  let fullToken: string;
  let revoked: { id: string; token: string };
  let otherSimToken: string;
  let disconnected: string;

  beforeAll(async () => {
    sim = makeSim();
    ids = await createResources(sim, "demo");
    fullToken = sim.token("demo", "full");
    // An OAuth connection disconnected by the store (States: active -> revoked): its access token stops at once.
    disconnected = (await connect(sim, await fixture(sim), ALL_SCOPES)).access_token;
    expect((await api(sim, "GET", "/demo/v1/me", disconnected)).status).toBe(200);
    const connection = (await control(sim, "GET", "/connections")).json[0];
    expect((await control(sim, "POST", `/connections/${connection.id}/disconnect`)).status).toBe(200);
    revoked = await createKey(sim, "to-be-revoked");
    expect((await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${revoked.token}` })).status).toBe(200);
    const revoke = await control(sim, "POST", `/keys/${revoked.id}/revoke`);
    expect({ status: revoke.status, json: revoke.json }).toEqual({
      status: 200,
      json: { id: revoked.id, state: "revoked" },
    });
    // A key that exists, but in another simulator (seed 2): well formed, unknown here.
    otherSimToken = makeSim({ seed: 2 }).token("demo", "full");
    expect(otherSimToken).not.toBe(fullToken);
  });

  const request = (op: Operation) => requestFor(op, "demo", ids, unique());

  it.each(opCases(OPS))(
    "%s: without an Authorization header answers exactly 401 {error: {code: UNAUTHORIZED, message}}",
    async (_name, { op, i }) => {
      const reply = await send(sim, request(op), { auth: null, remoteAddress: addr(1, i) });
      expectError(reply, 401, "UNAUTHORIZED");
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    },
  );

  it.each(opCases(OPS))(
    "%s: each malformed Authorization header answers 401 UNAUTHORIZED",
    async (_name, { op, i }) => {
      const got: Record<string, unknown> = {};
      for (const [shape, make] of MALFORMED) {
        const reply = await send(sim, request(op), { auth: make(fullToken), remoteAddress: addr(1, i) });
        got[shape] = outcome(reply);
        expectError(reply, 401, "UNAUTHORIZED");
        expect(reply.text, `${shape}: the answer does not echo the token`).not.toContain(fullToken);
      }
      expect(got).toEqual(
        Object.fromEntries(MALFORMED.map(([shape]) => [shape, { status: 401, code: "UNAUTHORIZED" }])),
      );
    },
  );

  it.each(opCases(OPS))(
    "%s: an unknown token (never issued, one character changed, or another simulator's) answers 401 UNAUTHORIZED",
    async (_name, { op, i }) => {
      const changed = `${fullToken.slice(0, -1)}${fullToken.endsWith("A") ? "B" : "A"}`;
      for (const auth of [
        "Bearer rsk_neverIssuedBySecurityMatrix000000000000000",
        `Bearer ${changed}`,
        `Bearer ${otherSimToken}`,
      ]) {
        const reply = await send(sim, request(op), { auth, remoteAddress: addr(1, i) });
        expectError(reply, 401, "UNAUTHORIZED");
      }
    },
  );

  it.each(opCases(OPS))(
    "%s: a key revoked through POST /_sim/keys/{id}/revoke answers 401 UNAUTHORIZED",
    async (_name, { op, i }) => {
      const reply = await send(sim, request(op), { auth: `Bearer ${revoked.token}`, remoteAddress: addr(1, i) });
      expectError(reply, 401, "UNAUTHORIZED");
      expect(reply.text).not.toContain(revoked.token);
    },
  );

  it.each(opCases(OPS))(
    "%s: the access token of a disconnected OAuth connection answers 401 UNAUTHORIZED",
    async (_name, { op, i }) => {
      const reply = await send(sim, request(op), { auth: `Bearer ${disconnected}`, remoteAddress: addr(1, i) });
      expectError(reply, 401, "UNAUTHORIZED");
    },
  );
});

// ------------------------------------------------------------------------------------------------
// 5: expired credentials

describe("Spec, States (Credential: active -> expired, no request for 90 days) and Errors: every operation answers 401 to an idle key", () => {
  let sim: Simulator;
  let ids: Ids;
  let idle: { id: string; token: string };
  let usedStatus: number;

  beforeAll(async () => {
    sim = makeSim();
    ids = await createResources(sim, "demo");
    idle = await createKey(sim, "idle");
    usedStatus = (await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${idle.token}` })).status;
    await advance(sim, 90 * DAY + 1);
  });

  it("control: the key worked when last used, and a key made after the clock moved works (the 401s are the idle time)", async () => {
    expect(usedStatus).toBe(200);
    const fresh = await createKey(sim, "fresh");
    expect((await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${fresh.token}` })).status).toBe(200);
    const keys = (await control(sim, "GET", "/credentials")).json.stores.find(
      (s: { prefix: string }) => s.prefix === "demo",
    ).keys;
    expect(keys.find((k: { id: string }) => k.id === idle.id).state).toBe("expired");
  });

  it.each(opCases(OPS))(
    "%s: a key idle for 90 days and 1 second answers 401 UNAUTHORIZED",
    async (_name, { op, i }) => {
      const reply = await send(sim, requestFor(op, "demo", ids, unique()), {
        auth: `Bearer ${idle.token}`,
        remoteAddress: addr(2, i),
      });
      expectError(reply, 401, "UNAUTHORIZED");
    },
  );
});

describe("Spec, Authentication 7 and Limits (access token: 3600 seconds): every operation answers 401 to an expired access token", () => {
  let sim: Simulator;
  let fx: Fixture;
  let ids: Ids;
  let issued: { access_token: string; refresh_token: string; expires_in: number };
  let freshStatus: number;

  beforeAll(async () => {
    sim = makeSim();
    ids = await createResources(sim, "demo");
    fx = await fixture(sim);
    issued = await connect(sim, fx, ALL_SCOPES);
    freshStatus = (await api(sim, "GET", "/demo/v1/me", issued.access_token)).status;
    await advance(sim, 3601);
  });

  it("control: the token worked when issued (expires_in 3600), and a refresh after expiry gives a token that works", async () => {
    expect({ status: freshStatus, expires_in: issued.expires_in }).toEqual({ status: 200, expires_in: 3600 });
    const refreshed = await refresh(sim, fx.client, issued.refresh_token);
    expect(refreshed.status).toBe(200);
    expect((await api(sim, "GET", "/demo/v1/me", refreshed.json.access_token)).status).toBe(200);
  });

  it.each(opCases(OPS))(
    "%s: an access token issued 3601 seconds ago answers 401 UNAUTHORIZED",
    async (_name, { op, i }) => {
      const reply = await send(sim, requestFor(op, "demo", ids, unique()), {
        auth: `Bearer ${issued.access_token}`,
        remoteAddress: addr(3, i),
      });
      expectError(reply, 401, "UNAUTHORIZED");
      expect(reply.text).not.toContain(issued.access_token);
    },
  );
});

// ------------------------------------------------------------------------------------------------
// 6: scopes

interface KeyInfo {
  id: string;
  name: string;
  token: string;
  scopes: Scope[];
}

describe("Spec, Scopes and Errors (INSUFFICIENT_SCOPE): every key lacking an operation's scope answers exactly 403", () => {
  let sim: Simulator;
  let ids: Ids;
  let keys: KeyInfo[];
  const scoped = OPS.filter((op) => op.scope !== null);
  const unscoped = OPS.filter((op) => op.scope === null);

  beforeAll(async () => {
    sim = makeSim();
    ids = await createResources(sim, "demo");
    keys = (await control(sim, "GET", "/credentials")).json.stores.find(
      (s: { prefix: string }) => s.prefix === "demo",
    ).keys;
  });

  it("the demo fixture has the keys the matrix needs: full, read, none and one per scope (interfaces.md section 6)", () => {
    const byName = new Map(keys.map((k) => [k.name, k.scopes]));
    expect(byName.get("full")).toEqual([...SCOPES]);
    expect(byName.get("none")).toEqual([]);
    expect(byName.get("read")).toEqual(SCOPES.filter((s) => s.endsWith(":read")));
    // Spec, Authentication 2: ticking a write scope also ticks its read scope.
    for (const scope of SCOPES)
      expect(byName.get(scope)).toEqual(scope.endsWith(":write") ? [scope.replace(":write", ":read"), scope] : [scope]);
  });

  it.each(opCases(scoped))(
    "%s: each key whose scopes do not grant the operation's scope answers 403 INSUFFICIENT_SCOPE and changes nothing",
    async (_name, { op, i }) => {
      sim.clock.advance(61); // a new minute for the general limit of the `full` key that reads the fingerprints
      const lacking = keys.filter((k) => !grants(k.scopes, op.scope as Scope));
      expect(lacking.map((k) => k.name)).toContain("none");
      const before = await fingerprint(sim, "demo", ids);
      const got: Record<string, unknown> = {};
      for (const key of lacking) {
        const reply = await send(sim, requestFor(op, "demo", ids, unique()), {
          auth: `Bearer ${key.token}`,
          remoteAddress: addr(4, i),
        });
        got[key.name] = outcome(reply);
        expectError(reply, 403, "INSUFFICIENT_SCOPE");
      }
      expect(got).toEqual(
        Object.fromEntries(lacking.map((k) => [k.name, { status: 403, code: "INSUFFICIENT_SCOPE" }])),
      );
      expect(await fingerprint(sim, "demo", ids)).toEqual(before);
    },
  );

  it.each(opCases(scoped))(
    "%s: each key whose scopes grant it gets past the scope check: the same answer as `full`, never 401 or 403",
    async (_name, { op, i }) => {
      sim.clock.advance(61);
      // A request that can change nothing: ids that exist nowhere, no body, no Idempotency-Key.
      const path = pathFor(op, "demo", () => NOWHERE);
      const full = outcome(await call(sim, op.method, path, { key: "full", remoteAddress: addr(5, i) }));
      expect([401, 403]).not.toContain(full.status);
      const granting = keys.filter((k) => grants(k.scopes, op.scope as Scope));
      const got: Record<string, unknown> = {};
      for (const key of granting)
        got[key.name] = outcome(
          await call(sim, op.method, path, { auth: `Bearer ${key.token}`, remoteAddress: addr(5, i) }),
        );
      expect(got).toEqual(Object.fromEntries(granting.map((k) => [k.name, full])));
    },
  );

  it.each(opCases(unscoped))(
    "%s: needs no particular scope: every key of the store, `none` included, answers 200",
    async (_name, { op, i }) => {
      sim.clock.advance(61);
      const got: Record<string, number> = {};
      for (const key of keys)
        got[key.name] = (
          await send(sim, requestFor(op, "demo", ids, unique()), {
            auth: `Bearer ${key.token}`,
            remoteAddress: addr(6, i),
          })
        ).status;
      expect(got).toEqual(Object.fromEntries(keys.map((k) => [k.name, op.successStatus])));
    },
  );
});

describe("Spec, Scopes (OAuth connections carry scopes too): an access token lacking an operation's scope answers 403 INSUFFICIENT_SCOPE", () => {
  let sim: Simulator;
  let ids: Ids;
  let tokens: { access_token: string; scopes: Scope[] }[];
  const scoped = OPS.filter((op) => op.scope !== null);

  beforeAll(async () => {
    sim = makeSim();
    ids = await createResources(sim, "demo");
    const fx = await fixture(sim);
    tokens = [];
    for (const scope of ["sales:read", "catalog:write"]) {
      const issued = await connect(sim, fx, scope);
      tokens.push({ access_token: issued.access_token, scopes: issued.scope.split(" ") });
    }
  });

  it.each(opCases(scoped))(
    "%s: a token whose granted scopes lack it answers 403 INSUFFICIENT_SCOPE",
    async (_name, { op, i }) => {
      const lacking = tokens.find((t) => !grants(t.scopes, op.scope as Scope));
      if (!lacking) throw new Error(`no token lacks ${op.scope}`);
      const reply = await send(sim, requestFor(op, "demo", ids, unique()), {
        auth: `Bearer ${lacking.access_token}`,
        remoteAddress: addr(9, i),
      });
      expectError(reply, 403, "INSUFFICIENT_SCOPE");
    },
  );
});

// ------------------------------------------------------------------------------------------------
// 7: tenant isolation

/** Every operation with path parameters, once for each non-empty set of parameters taken from store `other`. */
const isolationCases = OPS.flatMap((op) => {
  const kinds = paramKinds(op);
  const cases = [];
  for (let mask = 1; mask < 1 << kinds.length; mask++) {
    const foreign = kinds.filter((_k, index) => mask & (1 << index));
    cases.push({ name: `${label(op)} with other's ${foreign.join(" and ")}`, op, mask });
  }
  return cases;
});

describe("Spec, Errors (NOT_FOUND: other store's id): every id of store `other` answers 404 from store `demo`, for reads, writes and deletes", () => {
  let sim: Simulator;
  let otherIds: Ids;

  beforeAll(async () => {
    sim = makeSim();
    otherIds = await createResources(sim, "other");
  });

  it("every operation of the table with path parameters is a case", () => {
    const withParams = OPS.filter((op) => pathParams(op.path).length > 0).map((op) => op.id);
    expect(withParams.length).toBeGreaterThan(0);
    expect([...new Set(isolationCases.map((c) => c.op.id))]).toEqual(withParams);
  });

  it.each(isolationCases.map((c, i) => [c.name, { ...c, i }] as const))(
    "%s: demo's `full` key answers 404 NOT_FOUND; neither store changes; the same request with demo's own ids succeeds",
    async (_name, { op, mask, i }) => {
      sim.clock.advance(61); // a new minute for the general and customer limits of both `full` keys
      const demoIds = await createResources(sim, "demo");
      const idsFor = (index: number) => (mask & (1 << index) ? otherIds : demoIds);
      const n = unique();
      const attack: BuiltRequest = {
        method: op.method,
        path: pathFor(op, "demo", idsFor),
        // The body names the other store's rows too (e.g. the other parent's variant attribute): the most a caller could know.
        body: bodyFor(op, otherIds, n),
        headers: op.idempotency === "required" ? { "idempotency-key": `isolation-${n}` } : {},
      };
      const before = {
        other: await fingerprint(sim, "other", otherIds),
        demo: await fingerprint(sim, "demo", demoIds),
      };

      const reply = await send(sim, attack, { key: "full", store: "demo", remoteAddress: addr(7, i) });
      expectError(reply, 404, "NOT_FOUND");

      expect({
        other: await fingerprint(sim, "other", otherIds),
        demo: await fingerprint(sim, "demo", demoIds),
      }).toEqual(before);

      // Control: the same operation with demo's own ids and a body built from them is carried out.
      const own = await send(sim, requestFor(op, "demo", demoIds, unique()), {
        key: "full",
        store: "demo",
        remoteAddress: addr(7, i),
      });
      expect({ status: own.status, error: own.json?.error }).toEqual({ status: op.successStatus, error: undefined });
    },
  );

  it.each(opCases(OPS))(
    "%s: demo's `full` key under the /other/v1 prefix, with other's real ids, answers 401 UNAUTHORIZED and changes nothing",
    async (_name, { op, i }) => {
      sim.clock.advance(61);
      const before = await fingerprint(sim, "other", otherIds);
      const reply = await send(sim, requestFor(op, "other", otherIds, unique()), {
        key: "full",
        store: "demo",
        remoteAddress: addr(8, i),
      });
      expectError(reply, 401, "UNAUTHORIZED");
      expect(await fingerprint(sim, "other", otherIds)).toEqual(before);
    },
  );
});

describe("Spec, Errors (UNPROCESSABLE: referenced thing not found; Product write rules 8): ids of store `other` inside a demo request body are refused and write nothing", () => {
  let sim: Simulator;
  let otherIds: Ids;

  beforeAll(async () => {
    sim = makeSim();
    otherIds = await createResources(sim, "other");
  });

  // Bodies are built from demo's own ids (d), and one reference from `r`: the other store's ids in the
  // attack, demo's own in the control that shows the body is otherwise valid.
  // Status and code: 422 UNPROCESSABLE for a referenced thing not found (Errors table; docs/spec-choices.md
  // "Unknown references" and "Unknown product or outlet ... in a body"), 400 for an unknown tag id (Product write rules 8).
  const cases: {
    name: string;
    method: string;
    path: (d: Ids) => string;
    body: (d: Ids, r: Ids, n: string) => unknown;
    headers?: boolean;
    status: number;
    code: string;
  }[] = [
    {
      name: "POST /inventory/adjustments naming other's product",
      method: "POST",
      path: () => "/inventory/adjustments",
      headers: true,
      body: (d, r) => ({ product_id: r.products, outlet_id: d.outlets, reason_id: d.reason, quantity: 2 }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/adjustments naming other's outlet",
      method: "POST",
      path: () => "/inventory/adjustments",
      headers: true,
      body: (d, r) => ({ product_id: d.products, outlet_id: r.outlets, reason_id: d.reason, quantity: 2 }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/adjustments naming other's reason",
      method: "POST",
      path: () => "/inventory/adjustments",
      headers: true,
      body: (d, r) => ({ product_id: d.products, outlet_id: d.outlets, reason_id: r.reason, quantity: 2 }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/adjustments naming other's product by sku",
      method: "POST",
      path: () => "/inventory/adjustments",
      headers: true,
      body: (d, r) => ({ sku: r.sku, outlet_id: d.outlets, reason_id: d.reason, quantity: 2 }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/batch with a line naming other's product",
      method: "POST",
      path: () => "/inventory/batch",
      headers: true,
      body: (d, r) => ({ lines: [{ product_id: r.products, outlet_id: d.outlets, set: { on_hand: 4 } }] }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/batch with a line naming other's outlet",
      method: "POST",
      path: () => "/inventory/batch",
      headers: true,
      body: (d, r) => ({ lines: [{ product_id: d.products, outlet_id: r.outlets, set: { on_hand: 4 } }] }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/batch with a line naming other's product by sku",
      method: "POST",
      path: () => "/inventory/batch",
      headers: true,
      body: (d, r) => ({ lines: [{ sku: r.sku, outlet_id: d.outlets, set: { on_hand: 4 } }] }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "PUT /products/{id}/inventory/{outlet_id} with other's reason_id",
      method: "PUT",
      path: (d) => `/products/${d.products}/inventory/${d.outlets}`,
      body: (_d, r) => ({ on_hand: 9, reason_id: r.reason }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's brand_id",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({ name: `X ${n}`, retail_price: 100, sku: `ISO-${n}`, brand_id: r.brands }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's category_id",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({ name: `X ${n}`, retail_price: 100, sku: `ISO-${n}`, category_id: r.categories }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's supplier",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({
        name: `X ${n}`,
        retail_price: 100,
        sku: `ISO-${n}`,
        suppliers: [{ supplier_id: r.suppliers, is_primary: true, supplier_code: "S1" }],
      }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's product as a component",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({
        name: `X ${n}`,
        retail_price: 100,
        sku: `ISO-${n}`,
        components: [{ product_id: r.plain, quantity: 1 }],
      }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's tag (unknown tag id: 400)",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({ name: `X ${n}`, retail_price: 100, sku: `ISO-${n}`, tags: [{ id: r.tags }] }),
      status: 400,
      code: "VALIDATION_FAILED",
    },
    {
      name: "PATCH /products/{id} with other's brand_id",
      method: "PATCH",
      path: (d) => `/products/${d.products}`,
      body: (_d, r) => ({ brand_id: r.brands }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /categories with other's category as parent_id",
      method: "POST",
      path: () => "/categories",
      body: (_d, r, n) => ({ name: `Iso ${n}`, parent_id: r.categories }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /customers with other's customer_group_id",
      method: "POST",
      path: () => "/customers",
      body: (_d, r, n) => ({
        first_name: `Iso${n}`,
        customer_code: `ISO-${n}`,
        customer_group_id: r["customer-groups"],
      }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "PATCH /customers/{id} with other's customer_group_id",
      method: "PATCH",
      path: (d) => `/customers/${d.customers}`,
      body: (_d, r) => ({ customer_group_id: r["customer-groups"] }),
      status: 422,
      code: "UNPROCESSABLE",
    },
  ];

  it.each(cases.map((c, i) => [`${c.name} answers ${c.status} ${c.code}`, { ...c, i }] as const))(
    "%s; neither store changes; with demo's own reference the request succeeds",
    async (_name, c) => {
      sim.clock.advance(61);
      const demoIds = await createResources(sim, "demo");
      const path = `/demo/v1${c.path(demoIds)}`;
      const op = operationAt(c.method, path);
      const sendWith = (ref: Ids, n: string) =>
        call(sim, c.method, path, {
          key: "full",
          body: c.body(demoIds, ref, n),
          headers: c.headers ? { "idempotency-key": `iso-body-${n}` } : {},
          remoteAddress: addr(10, c.i),
        });
      const n = unique();
      const before = {
        other: await fingerprint(sim, "other", otherIds),
        demo: await fingerprint(sim, "demo", demoIds),
      };
      expect(outcome(await sendWith(otherIds, n))).toEqual({ status: c.status, code: c.code });
      expect({
        other: await fingerprint(sim, "other", otherIds),
        demo: await fingerprint(sim, "demo", demoIds),
      }).toEqual(before);
      // Product write rules 4: nothing of a refused create is saved.
      expect((await call(sim, "GET", `/demo/v1/products?sku=ISO-${n}`, { key: "full" })).json.data).toEqual([]);
      // Control: the same request naming demo's own row is carried out.
      expect(outcome(await sendWith(demoIds, unique()))).toEqual({ status: op.successStatus, code: null });
    },
  );

  it.each([
    ["GET /sales?outlet_id=<other's outlet>", (o: Ids) => `/sales?outlet_id=${o.outlets}`],
    ["GET /sales?customer_id=<other's customer>", (o: Ids) => `/sales?customer_id=${o.customers}`],
    ["GET /sales?parent_sale_id=<other's sale>", (o: Ids) => `/sales?parent_sale_id=${o.sales}`],
    ["GET /products?sku=<other's sku>", (o: Ids) => `/products?sku=${o.sku}`],
  ] as const)("%s answers 200 with an empty page: no row of store `other` is shown to demo", async (_name, path) => {
    sim.clock.advance(61);
    const reply = await call(sim, "GET", `/demo/v1${path(otherIds)}`, { key: "full" });
    expect({ status: reply.status, data: reply.json.data, has_more: reply.json.has_more }).toEqual({
      status: 200,
      data: [],
      has_more: false,
    });
  });

  it("control: the other store does hold those rows (its own `full` key finds them)", async () => {
    sim.clock.advance(61);
    expect(
      (await call(sim, "GET", `/other/v1/sales?outlet_id=${otherIds.outlets}`, { key: "full" })).json.data.map(
        (s: { id: string }) => s.id,
      ),
    ).toContain(otherIds.sales);
    expect(
      (await call(sim, "GET", `/other/v1/products?sku=${otherIds.sku}`, { key: "full" })).json.data.map(
        (p: { id: string }) => p.id,
      ),
    ).toEqual([otherIds.plain]);
  });
});

// ------------------------------------------------------------------------------------------------
// 8: failed-authentication limits (what src/engine/limits.test.ts does not cover yet)

const BAD = "Bearer rsk_securityMatrixUnknownToken00000000000000";

describe("Spec, Limits (failed authentication per address and credential, 30 per 5 minutes): failures on different operations add up, and the block covers every operation", () => {
  const A = "10.20.0.1";
  const B = "10.20.0.2";
  let sim: Simulator;
  let first: { op: string; status: number }[];

  beforeAll(async () => {
    sim = makeSim();
    first = [];
    for (let i = 0; i < 30; i++) {
      const op = OPS[i % OPS.length] as Operation;
      first.push({
        op: op.id,
        status: (await send(sim, requestFor(op, "demo", NOWHERE, unique()), { auth: BAD, remoteAddress: A })).status,
      });
    }
  });

  it("30 failures, one per operation of the table (cycling when it has fewer), each answer 401", () => {
    expect(first.map((f) => f.status)).toEqual(Array(30).fill(401));
    expect(new Set(first.map((f) => f.op)).size).toBe(Math.min(30, OPS.length));
  });

  it.each(opCases(OPS))("%s: the blocked pair answers 429 RATE_LIMITED with Retry-After 300", async (_name, { op }) => {
    const reply = await send(sim, requestFor(op, "demo", NOWHERE, unique()), { auth: BAD, remoteAddress: A });
    expectError(reply, 429, "RATE_LIMITED");
    expect(reply.headers.get("retry-after")).toBe("300");
  });

  it("the same credential from another address is not blocked (401, a fresh window), nor is another credential at the same address (200)", async () => {
    const elsewhere = await call(sim, "GET", "/demo/v1/me", { auth: BAD, remoteAddress: B });
    expectError(elsewhere, 401, "UNAUTHORIZED");
    expect(elsewhere.headers.get("ratelimit")).toBe("limit=30, remaining=29, reset=300");
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A })).status).toBe(200);
  });
});

interface FailureKind {
  name: string;
  /** Prepares the simulator and answers the Authorization header (null: none) and the store prefix of the requests. */
  prepare(sim: Simulator): Promise<{ auth: string | null; prefix: string }>;
}

const FAILURE_KINDS: FailureKind[] = [
  { name: "no Authorization header", prepare: async () => ({ auth: null, prefix: "demo" }) },
  { name: "a malformed header (`Basic abc`)", prepare: async () => ({ auth: "Basic abc", prefix: "demo" }) },
  { name: "a malformed header (`Bearer` alone)", prepare: async () => ({ auth: "Bearer", prefix: "demo" }) },
  {
    name: "a revoked key",
    prepare: async (sim) => {
      const key = await createKey(sim, "revoked");
      expect((await control(sim, "POST", `/keys/${key.id}/revoke`)).status).toBe(200);
      return { auth: `Bearer ${key.token}`, prefix: "demo" };
    },
  },
  {
    name: "a key idle for over 90 days",
    prepare: async (sim) => {
      const key = await createKey(sim, "idle");
      await advance(sim, 90 * DAY + 1);
      return { auth: `Bearer ${key.token}`, prefix: "demo" };
    },
  },
  {
    name: "an access token past its 3600 seconds",
    prepare: async (sim) => {
      const issued = await connect(sim, await fixture(sim), ALL_SCOPES);
      await advance(sim, 3601);
      return { auth: `Bearer ${issued.access_token}`, prefix: "demo" };
    },
  },
  {
    name: "demo's `full` key under another store's prefix",
    prepare: async (sim) => ({ auth: `Bearer ${sim.token("demo", "full")}`, prefix: "other" }),
  },
];

describe("Spec, Limits (failed authentication): every kind of refused credential counts toward the 30 per address and credential", () => {
  it.each(FAILURE_KINDS.map((k) => [k.name, k] as const))(
    "%s: 30 failures over the table's operations answer 401, the 31st 429; other addresses and credentials are unaffected",
    async (_name, kind) => {
      const sim = makeSim();
      const { auth, prefix } = await kind.prepare(sim);
      const A = "10.21.0.1";
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++)
        statuses.push(
          (
            await send(sim, requestFor(OPS[i % OPS.length] as Operation, prefix, NOWHERE, unique()), {
              auth,
              remoteAddress: A,
            })
          ).status,
        );
      expect(statuses).toEqual(Array(30).fill(401));
      const blocked = await call(sim, "GET", `/${prefix}/v1/me`, { auth, remoteAddress: A });
      expectError(blocked, 429, "RATE_LIMITED");
      expect(blocked.headers.get("retry-after")).toBe("300");
      expectError(
        await call(sim, "GET", `/${prefix}/v1/me`, { auth, remoteAddress: "10.21.0.2" }),
        401,
        "UNAUTHORIZED",
      );
      const another = await createKey(sim, "another-credential");
      expect(
        (await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${another.token}`, remoteAddress: A })).status,
      ).toBe(200);
    },
  );
});

describe("Spec, Limits (failed authentication = answers 401, 402 and 403): only failures count", () => {
  const A = "10.22.0.1";

  it("successful requests between failures do not reset the pair's count: 15 failures, 10 successes, 15 failures, then 429", async () => {
    const sim = makeSim();
    const scopedOp = "/demo/v1/sales";
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++)
      statuses.push((await call(sim, "GET", scopedOp, { key: "none", remoteAddress: A })).status);
    for (let i = 0; i < 10; i++)
      statuses.push((await call(sim, "GET", "/demo/v1/me", { key: "none", remoteAddress: A })).status);
    for (let i = 0; i < 15; i++)
      statuses.push((await call(sim, "GET", scopedOp, { key: "none", remoteAddress: A })).status);
    expect(statuses).toEqual([...Array(15).fill(403), ...Array(10).fill(200), ...Array(15).fill(403)]);
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "none", remoteAddress: A }), 429, "RATE_LIMITED");
  });

  it("a blocked pair's 429 answers are not failures: 300 of them leave the address open and do not extend the pair's window", async () => {
    const sim = makeSim();
    for (let i = 0; i < 30; i++)
      expect((await call(sim, "GET", "/demo/v1/me", { auth: BAD, remoteAddress: A })).status).toBe(401);
    const blocked: number[] = [];
    for (let i = 0; i < 300; i++) {
      sim.clock.advance(i === 150 ? 100 : 0);
      blocked.push((await call(sim, "GET", "/demo/v1/store", { auth: BAD, remoteAddress: A })).status);
    }
    expect(blocked).toEqual(Array(300).fill(429));
    // The address has 30 failures, not 330: another bad credential still gets its 401, and a valid key its 200.
    expectError(
      await call(sim, "GET", "/demo/v1/me", { auth: "Bearer rsk_anotherUnknownToken", remoteAddress: A }),
      401,
      "UNAUTHORIZED",
    );
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A })).status).toBe(200);
    // The window opened at the first failure: 300 s after it (200 s after the last 429s) the pair starts afresh.
    sim.clock.advance(200);
    const again = await call(sim, "GET", "/demo/v1/me", { auth: BAD, remoteAddress: A });
    expectError(again, 401, "UNAUTHORIZED");
    expect(again.headers.get("ratelimit")).toBe("limit=30, remaining=29, reset=300");
  });

  it("after the 5-minute window the address has its whole budget of 300 again: 299 failures leave it open, the 300th blocks it", async () => {
    const sim = makeSim();
    const fail = async (from: number, count: number) => {
      const statuses: number[] = [];
      for (let i = from; i < from + count; i++) {
        const op = OPS[i % OPS.length] as Operation;
        statuses.push(
          (
            await send(sim, requestFor(op, "demo", NOWHERE, unique()), {
              auth: `Bearer rsk_distinct${i}`,
              remoteAddress: A,
            })
          ).status,
        );
      }
      return statuses;
    };
    expect(await fail(0, 300)).toEqual(Array(300).fill(401));
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A }), 429, "RATE_LIMITED");
    sim.clock.advance(300);
    expect(await fail(300, 299)).toEqual(Array(299).fill(401));
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A })).status).toBe(200);
    expect(await fail(599, 1)).toEqual([401]);
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A }), 429, "RATE_LIMITED");
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: "10.22.0.2" })).status).toBe(200);
  });

  // The spec counts "per network address and credential". The simulator keys the count by the raw
  // Authorization value (docs/spec-choices.md, Limits), so respelling the scheme or the spaces before
  // one token would give it a fresh 30 attempts each time, up to the address's 300.
  it("the credential is the token, not the header's spelling: `Bearer x`, `bearer x` and `BEARER  x` (all well formed, RFC 6750) share one count of 30", async () => {
    const sim = makeSim();
    const token = "rsk_securityMatrixSpelledThreeWays000000000";
    const spellings = [`Bearer ${token}`, `bearer ${token}`, `BEARER  ${token}`];
    const statuses: number[] = [];
    for (const auth of spellings)
      for (let i = 0; i < 10; i++)
        statuses.push((await call(sim, "GET", "/demo/v1/me", { auth, remoteAddress: A })).status);
    expect(statuses).toEqual(Array(30).fill(401));
    const got: Record<string, unknown> = {};
    for (const auth of spellings)
      got[auth] = outcome(await call(sim, "GET", "/demo/v1/me", { auth, remoteAddress: A }));
    expect(got).toEqual(Object.fromEntries(spellings.map((auth) => [auth, { status: 429, code: "RATE_LIMITED" }])));
  });
});

// ------------------------------------------------------------------------------------------------
// 9: credentials held as digests, secrets compared in constant time

/** Every key token of every store, as the control plane lists them. */
function allKeyTokens(sim: Simulator): Record<string, string> {
  const out: Record<string, string> = {};
  for (const store of sim.credentials().stores)
    for (const key of store.keys) out[`${store.prefix}/${key.name}`] = key.token;
  return out;
}

describe("Issue (Robustness and security): credentials are stored only as digests", () => {
  it("the credential registry (engine/auth/credentials.ts) holds no API key's plaintext, fixture keys and a control-plane key alike", async () => {
    const sim = makeSim();
    const created = await createKey(sim, "made-by-control");
    const tokens = { ...allKeyTokens(sim), "demo/made-by-control": created.token };
    const held = reachableStrings(sim.world.credentials).join("\n");
    expect(leaked(held, tokens)).toEqual([]);
  });

  it("the credential registry holds no OAuth access token's plaintext (issued by a code exchange and by a refresh)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const issued = await connect(sim, fx, "catalog:read");
    const refreshed = (await refresh(sim, fx.client, issued.refresh_token)).json;
    const held = reachableStrings(sim.world.credentials).join("\n");
    expect(leaked(held, { exchanged: issued.access_token, refreshed: refreshed.access_token })).toEqual([]);
  });

  it("the registry finds a credential by the SHA-256 digest of its token: every digest is a lookup key, no token is", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const issued = await connect(sim, fx, "catalog:read");
    const tokens = [...Object.values(allKeyTokens(sim)), issued.access_token];
    const keys = new Set(reachableMapKeys(sim.world.credentials));
    expect(tokens.filter((t) => !keys.has(sha256(t)))).toEqual([]);
    expect(tokens.filter((t) => keys.has(t))).toEqual([]);
  });

  it("the OAuth state holds refresh tokens by digest only: the digest is a lookup key, the plaintext appears nowhere", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const issued = await connect(sim, fx, "catalog:read");
    expect(reachableMapKeys(sim.world.oauth)).toContain(sha256(issued.refresh_token));
    expect(
      leaked(reachableStrings(sim.world.oauth).join("\n"), {
        refresh_token: issued.refresh_token,
        access_token: issued.access_token,
      }),
    ).toEqual([]);
  });

  it("the OAuth state holds authorization codes by digest only, before and after their exchange", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const pending = await getCode(sim, fx, { scope: "catalog:read" });
    const used = await getCode(sim, fx, { scope: "catalog:read" });
    expect(
      (
        await tokenRequest(sim, {
          grant_type: "authorization_code",
          code: used,
          redirect_uri: fx.redirectUri,
          client_id: fx.client.client_id,
          client_secret: fx.client.client_secret,
        })
      ).status,
    ).toBe(200);
    expect(leaked(reachableStrings(sim.world.oauth).join("\n"), { pending, used })).toEqual([]);
  });
});

describe("Issue (Robustness and security): secrets are compared in constant time (kernel/digest.ts safeEqual)", () => {
  // A second module graph, loaded after vi.resetModules(), in which digest.ts and node:crypto are the spied ones.
  let fresh: typeof import("../simulator.js");
  let digest: typeof import("../kernel/digest.js");
  beforeAll(async () => {
    vi.resetModules();
    fresh = await import("../simulator.js");
    digest = await import("../kernel/digest.js");
  });
  const reset = () => {
    spies.safeEqual.length = 0;
    spies.sha256.length = 0;
    spies.timingSafeEqual.length = 0;
  };

  it("safeEqual is exact and compares two 32-byte digests with timingSafeEqual: true for equal strings; false for another of the same length, a longer one, a prefix and the empty string, without throwing", () => {
    reset();
    const secret = "rss_securityMatrixClientSecret0000";
    expect({
      equal: digest.safeEqual(secret, `${secret}`),
      sameLength: digest.safeEqual(secret, `${secret.slice(0, -1)}1`),
      longer: digest.safeEqual(secret, `${secret}x`),
      prefix: digest.safeEqual(secret, secret.slice(0, 5)),
      empty: digest.safeEqual(secret, ""),
      bothEmpty: digest.safeEqual("", ""),
    }).toEqual({ equal: true, sameLength: false, longer: false, prefix: false, empty: false, bothEmpty: true });
    expect(spies.timingSafeEqual).toEqual(Array(6).fill([32, 32]));
  });

  it("the token endpoint checks the client secret with safeEqual over two 32-byte digests (timingSafeEqual), sent in the body or as HTTP Basic, right or wrong, of any length", async () => {
    const sim = fresh.createSimulator(withResponseCheck({ clock: "manual", seed: 1 }));
    const client = sim.credentials().oauth_clients[0]!;
    const attempts: [string, string, "body" | "basic"][] = [
      [
        "wrong, same length",
        `${client.client_secret.slice(0, -1)}${client.client_secret.endsWith("x") ? "y" : "x"}`,
        "body",
      ],
      ["wrong, shorter", "short", "body"],
      ["wrong, as Basic", "nope", "basic"],
      ["right (then the code is refused)", client.client_secret, "body"],
    ];
    const got: Record<string, unknown> = {};
    for (const [name, secret, how] of attempts) {
      reset();
      const fields: Record<string, string> = {
        grant_type: "authorization_code",
        code: "rsc_code_unknown",
        redirect_uri: client.redirect_uris[0]!,
      };
      const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
      if (how === "body") Object.assign(fields, { client_id: client.client_id, client_secret: secret });
      else headers.authorization = `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString("base64")}`;
      const res = await sim.fetch(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers,
        body: new URLSearchParams(fields).toString(),
      });
      const json = (await res.json()) as { error: string };
      got[name] = {
        status: res.status,
        error: json.error,
        safeEqual: spies.safeEqual.slice(),
        timingSafeEqual: spies.timingSafeEqual.slice(),
      };
    }
    const compared = (secret: string) => [[client.client_secret, secret]];
    expect(got).toEqual({
      "wrong, same length": {
        status: 401,
        error: "invalid_client",
        safeEqual: compared(attempts[0]![1]),
        timingSafeEqual: [[32, 32]],
      },
      "wrong, shorter": {
        status: 401,
        error: "invalid_client",
        safeEqual: compared("short"),
        timingSafeEqual: [[32, 32]],
      },
      "wrong, as Basic": {
        status: 401,
        error: "invalid_client",
        safeEqual: compared("nope"),
        timingSafeEqual: [[32, 32]],
      },
      "right (then the code is refused)": {
        status: 400,
        error: "invalid_grant",
        safeEqual: compared(client.client_secret),
        timingSafeEqual: [[32, 32]],
      },
    });
  });

  it("an API request looks its credential up by the SHA-256 digest of the presented token, known or unknown", async () => {
    const sim = fresh.createSimulator(withResponseCheck({ clock: "manual", seed: 1 }));
    const known = sim.token("demo", "full");
    const unknown = "rsk_securityMatrixUnknownForDigest0000000000";
    const statuses: number[] = [];
    const digested: boolean[] = [];
    for (const t of [known, unknown]) {
      reset();
      statuses.push((await sim.fetch(`${ORIGIN}/demo/v1/me`, { headers: { authorization: `Bearer ${t}` } })).status);
      digested.push(spies.sha256.includes(t));
    }
    expect({ statuses, digested }).toEqual({ statuses: [200, 401], digested: [true, true] });
  });

  it("the control plane's token (SimulatorOptions.controlToken) is checked with safeEqual", async () => {
    const controlToken = "security-matrix-control-token-0001";
    const sim = fresh.createSimulator(withResponseCheck({ clock: "manual", seed: 1, controlToken }));
    reset();
    const wrong = await sim.fetch(`${ORIGIN}/_sim/health`, {
      headers: { authorization: "Bearer security-matrix-control-token-0002" },
    });
    const right = await sim.fetch(`${ORIGIN}/_sim/health`, { headers: { authorization: `Bearer ${controlToken}` } });
    expect({ wrong: wrong.status, right: right.status }).toEqual({ wrong: 401, right: 200 });
    expect(spies.safeEqual).toEqual([
      ["security-matrix-control-token-0002", controlToken],
      [controlToken, controlToken],
    ]);
    expect(spies.timingSafeEqual).toEqual([
      [32, 32],
      [32, 32],
    ]);
  });
});

// ------------------------------------------------------------------------------------------------
// 10: logs

describe("Issue (Robustness and security): no credential or personal detail appears in the simulator's log", () => {
  it("a varied session (successes, 4xx, OAuth sign-in, consent and token exchanges, customer writes, an internal error) logs no token, secret, code, email, phone or name", async () => {
    const lines: string[] = [];
    const sim = makeSim({ log: (line) => lines.push(line) });
    const consoleLines: string[] = [];
    const consoleSpies = (["log", "info", "warn", "error", "debug"] as const).map((m) =>
      vi
        .spyOn(console, m)
        .mockImplementation((...args: unknown[]) => void consoleLines.push(args.map(String).join(" "))),
    );
    const person = {
      first_name: "Zephyrine",
      last_name: "Quillfeather",
      email: "zephyrine.quillfeather@example.net",
      phone: "+44 20 7946 0958",
      mobile: "07700 900461",
      address_1: "221B Baker Street",
      tax_id: "GB-TAX-99887766",
      date_of_birth: "1984-02-29",
    };
    const secrets: Record<string, string> = { ...allKeyTokens(sim) };
    try {
      const fx = await fixture(sim);
      secrets.client_secret = fx.client.client_secret;
      secrets.admin_email = fx.admin.email;
      secrets.staff_email = fx.staff.email;
      const ids = await createResources(sim, "demo");

      // API keys: successes and refusals.
      for (const key of ["full", "read", "none", "catalog:write"]) await call(sim, "GET", "/demo/v1/products", { key });
      await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${sim.token("demo", "full")} extra` });
      await call(sim, "GET", "/demo/v1/me", { auth: "Bearer rsk_unknownTokenForTheLogTest000000000" });
      await call(sim, "GET", "/demo/v1/me", {
        auth: `Basic ${Buffer.from(`${fx.client.client_id}:${fx.client.client_secret}`).toString("base64")}`,
      });
      await call(sim, "GET", `/demo/v1/products/${ids.products}`, { store: "other", key: "full" });
      const made = await createKey(sim, "log-test");
      secrets.control_key = made.token;
      await control(sim, "POST", `/keys/${made.id}/revoke`);
      await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${made.token}` });

      // Customers with personal details: create, a refused create, read, update, list, erase.
      const created = await call(sim, "POST", "/demo/v1/customers", { key: "full", body: person });
      expect(created.status).toBe(201);
      await call(sim, "POST", "/demo/v1/customers", {
        key: "full",
        body: { ...person, email: `${person.first_name} at nowhere` },
      });
      await call(sim, "POST", "/demo/v1/customers", { key: "customers:read", body: person });
      await call(sim, "GET", `/demo/v1/customers/${created.json.data.id}`, { key: "full" });
      await call(sim, "PATCH", `/demo/v1/customers/${created.json.data.id}`, {
        key: "full",
        body: { phone: person.mobile },
      });
      await call(sim, "GET", "/demo/v1/customers", { key: "full" });
      await call(sim, "DELETE", `/demo/v1/customers/${created.json.data.id}`, { key: "full" });

      // OAuth: the consent screen's sign-in (wrong then right password), the decision, and the token endpoint.
      const query = {
        response_type: "code",
        client_id: fx.client.client_id,
        redirect_uri: fx.redirectUri,
        scope: "catalog:read",
        state: "log-state",
      };
      const page = await getAuthorizePage(sim, query);
      const signIn = forms(page.html).find((f) => f.inputs.some((i) => i.type === "password"));
      expect(signIn).toBeDefined();
      const emailField = signIn!.inputs.find((i) => i.type === "email")?.name ?? "email";
      const passwordField = signIn!.inputs.find((i) => i.type === "password")?.name ?? "password";
      await submit(sim, signIn!, [
        [emailField, fx.admin.email],
        [passwordField, "wrong-password-for-the-log-test"],
      ]);
      const consent = await submit(sim, signIn!, [
        [emailField, fx.admin.email],
        [passwordField, fx.admin.password],
      ]);
      const decision = forms(consent.html).find((f) => f.buttons.some((b) => b.name === "decision"));
      expect(decision).toBeDefined();
      const allowed = await submit(sim, decision!, [["decision", "allow"]]);
      const screenCode = new URL(allowed.headers.get("location") as string).searchParams.get("code") as string;
      secrets.screen_code = screenCode;
      const headlessCode = await getCode(sim, fx, { scope: "catalog:write customers:write" });
      secrets.headless_code = headlessCode;
      const viaBody = await tokenRequest(sim, {
        grant_type: "authorization_code",
        code: screenCode,
        redirect_uri: fx.redirectUri,
        client_id: fx.client.client_id,
        client_secret: fx.client.client_secret,
      });
      const viaBasic = await tokenRequest(
        sim,
        { grant_type: "authorization_code", code: headlessCode, redirect_uri: fx.redirectUri },
        { basic: { id: fx.client.client_id, secret: fx.client.client_secret } },
      );
      expect([viaBody.status, viaBasic.status]).toEqual([200, 200]);
      Object.assign(secrets, {
        access_1: viaBody.json.access_token,
        refresh_1: viaBody.json.refresh_token,
        access_2: viaBasic.json.access_token,
        refresh_2: viaBasic.json.refresh_token,
      });
      await tokenRequest(sim, {
        grant_type: "authorization_code",
        code: screenCode,
        redirect_uri: fx.redirectUri,
        client_id: fx.client.client_id,
        client_secret: fx.client.client_secret,
      });
      await tokenRequest(sim, {
        grant_type: "refresh_token",
        refresh_token: viaBasic.json.refresh_token,
        client_id: fx.client.client_id,
        client_secret: "wrong-secret-for-the-log-test",
      });
      const refreshed = await refresh(sim, fx.client, viaBasic.json.refresh_token);
      secrets.access_3 = refreshed.json.access_token;
      await api(sim, "GET", "/demo/v1/products", viaBody.json.access_token);
      await api(sim, "POST", "/demo/v1/customers", refreshed.json.access_token, {
        ...person,
        customer_code: "LOG-TEST-2",
      });

      // An internal error: the real pipeline and handlers, with createCustomer failing after it ran.
      const crashing: Handler = async (ctx) => {
        const result = (await HANDLERS.createCustomer(ctx)) as unknown as { value: { missing: { deeper: unknown } } };
        return result.value.missing.deeper as never;
      };
      const handle = createApiHandler(OPS, { ...HANDLERS, createCustomer: crashing });
      const req: SimRequest = {
        method: "POST",
        path: "/demo/v1/customers",
        query: "",
        headers: { authorization: `Bearer ${sim.token("demo", "full")}`, "content-type": "application/json" },
        body: new TextEncoder().encode(JSON.stringify({ ...person, customer_code: "LOG-TEST-3" })),
        remoteAddress: "10.30.0.1",
        origin: ORIGIN,
      };
      const crashed = await handle(sim.world, req);
      expect({ status: crashed.status, code: JSON.parse(String(crashed.body)).error.code }).toEqual({
        status: 500,
        code: "INTERNAL",
      });
    } finally {
      for (const spy of consoleSpies) spy.mockRestore();
    }

    for (const [name, value] of Object.entries(person)) secrets[`customer ${name}`] = value;
    // The capture works: the internal error was reported.
    expect(lines.some((line) => line.includes("createCustomer"))).toBe(true);
    const found = [...lines, ...consoleLines].flatMap((line, i) =>
      leaked(line, secrets).map((name) => `line ${i}: ${name}`),
    );
    expect(found).toEqual([]);
  });
});
