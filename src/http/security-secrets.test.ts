// The security matrix, secrets (docs/spec-choices.md, Secrets): credentials are held only as digests, secrets
// are compared in constant time, and the log carries no credential or personal detail.
// Generated from the operations table (src/contract/operations): every operation of the table is a named case
// of every check, so a new operation is covered without touching this file. Written from the spec
// (retail-api-v1.md); the simulator is the thing under test. Time only moves through the manual clock.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Simulator } from "../simulator.js";
import { HANDLERS } from "./handlers/index.js";
import type { OperationOf } from "../contract/operations/index.js";
import type { Handler } from "./handlers/types.js";
import { createApiHandler } from "./pipeline.js";
import type { SimRequest } from "./types.js";
import { call, makeSim, ORIGIN } from "../test-support/sim.js";
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
} from "../test-support/oauth.js";
import { control, createResources, leaked, reachableMapKeys, reachableStrings } from "../test-support/security.js";
import { withResponseCheck } from "../test-support/response-validation.js";
import { OPS, sha256, createKey } from "../test-support/security-matrix.js";

// Spies for the constant-time checks. The checks read them only around calls into the module graph loaded
// after vi.resetModules() (see "compared in constant time" below), and reset them first. This file never
// imports kernel/digest.ts statically.
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

// 9: credentials held as digests, secrets compared in constant time

/** Every key token of every store, as the control plane lists them. */
function allKeyTokens(sim: Simulator): Record<string, string> {
  const out: Record<string, string> = {};
  for (const store of sim.credentials().stores)
    for (const key of store.keys) out[`${store.prefix}/${key.name}`] = key.token;
  return out;
}

describe("docs/spec-choices.md, Secrets (how credentials are held): credentials are stored only as digests", () => {
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

describe("docs/spec-choices.md, Secrets (comparisons of secrets): secrets are compared in constant time (kernel/digest.ts safeEqual)", () => {
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

describe("docs/spec-choices.md, Secrets (logs): no credential or personal detail appears in the simulator's log", () => {
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
      const crashing: Handler<OperationOf<"createCustomer">> = async (ctx) => {
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
