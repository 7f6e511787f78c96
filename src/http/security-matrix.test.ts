// The security matrix: credentials and scopes against every operation (spec: Authentication 1 and 7, States
// and transitions (Credential), Scopes, Errors: UNAUTHORIZED and INSUFFICIENT_SCOPE, Limits: access token).
// Generated from the operations table (src/contract/operations): every operation of the table is a named case
// of every check, so a new operation is covered without touching this file. Written from the spec
// (retail-api-v1.md); the simulator is the thing under test. Time only moves through the manual clock.
//
// Failed authentications (401, 402, 403) count per address and credential (30 per 5 minutes) and per
// address (300), so the matrices send each operation's failures from an address of its own.
// Tenant isolation: security-isolation.test.ts; failed-authentication limits: security-lockout.test.ts;
// secrets and logs: security-secrets.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "../contract/operation.js";
import { grants, SCOPES, type Scope } from "../contract/scopes.js";
import type { Simulator } from "../simulator.js";
import { call, makeSim } from "../test-support/sim.js";
import { api, connect, fixture, refresh, type Fixture } from "../test-support/oauth.js";
import {
  control,
  createResources,
  fingerprint,
  pathFor,
  requestFor,
  unique,
  type Ids,
} from "../test-support/security.js";
import { expectError } from "../test-support/errors.js";
import {
  OPS,
  DAY,
  ALL_SCOPES,
  opCases,
  addr,
  outcome,
  send,
  NOWHERE,
  createKey,
  advance,
} from "../test-support/security-matrix.js";

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
