// Sandboxes (docs/interfaces.md, Sandboxes): complete simulated services side by side in one simulator,
// each with its own stores, keys, clock, limits, faults and OAuth clients, reached at its stores' base
// URLs exactly as the spec addresses a store.
import { describe, expect, it } from "vitest";
import { call, makeSim, ORIGIN, type Reply } from "./test-support/sim.js";
import type { Simulator } from "./simulator.js";
import type { FixtureSpec } from "./contract/schemas/fixture.js";
import { demoFixture } from "../scenarios/fixtures/demo.js";
import { FixtureError } from "../scenarios/fixtures/index.js";
import { errorOf, expectError } from "./test-support/errors.js";

interface Created {
  id: string;
  control_url: string;
  api_root: string;
  auth_url: string;
  seed: number;
  clock: { now: string; mode: string };
  stores: { prefix: string; base_url: string; keys: { name: string; token: string }[] }[];
  oauth_clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
  users: { id: string; email: string; store_prefix: string }[];
}

const control = async (sim: Simulator, method: string, path: string, body?: unknown): Promise<Reply> =>
  call(sim, method, `/_sim${path}`, { auth: null, ...(body === undefined ? {} : { body }) });

async function create(sim: Simulator, body: unknown = {}): Promise<Created> {
  const reply = await control(sim, "POST", "/sandboxes", body);
  expect(reply.status).toBe(201);
  return reply.json as Created;
}

const keyOf = (sandbox: Created, prefix: string, name = "full"): string => {
  const store = sandbox.stores.find((s) => s.prefix === prefix);
  const key = store?.keys.find((k) => k.name === name);
  if (!key) throw new Error(`no key ${name} in ${prefix}`);
  return key.token;
};

/** A request to a store of a sandbox, by the path under its base URL. */
const api = (sim: Simulator, sandbox: Created, prefix: string, method: string, path: string, body?: unknown) =>
  call(sim, method, `/${prefix}/v1${path}`, {
    auth: `Bearer ${keyOf(sandbox, prefix)}`,
    ...(body === undefined ? {} : { body }),
  });

describe("Sandboxes: POST /_sim/sandboxes", () => {
  it("answers 201 with the sandbox's id, its control URL, its API root and credentials shaped as GET /_sim/credentials", async () => {
    const sim = makeSim();
    const made = await create(sim, { seed: 7 });
    expect(made.id).toBe("sb1");
    expect(made.control_url).toBe(`${ORIGIN}/_sim/sandboxes/sb1`);
    expect([made.api_root, made.auth_url, made.seed]).toEqual([ORIGIN, ORIGIN, 7]);
    expect(made.clock).toEqual({ now: "2026-01-01T00:00:00.000Z", mode: "manual" });
    expect(made.stores.map((s) => [s.prefix, s.base_url])).toEqual([
      ["demo-sb1", `${ORIGIN}/demo-sb1/v1`],
      ["other-sb1", `${ORIGIN}/other-sb1/v1`],
      ["lite-sb1", `${ORIGIN}/lite-sb1/v1`],
    ]);
    expect(made.users.map((u) => u.store_prefix)).toEqual(["demo-sb1", "demo-sb1", "other-sb1", "lite-sb1"]);
    const me = await api(sim, made, "demo-sb1", "GET", "/me");
    expect(me.status).toBe(200);
    expect(me.json.data.domain_prefix).toBe("demo-sb1");
    const listed = await control(sim, "GET", "/sandboxes");
    expect(listed.json.map((s: Created) => s.id)).toEqual(["sb1"]);
  });

  it('the default sandbox answers under its id, "default", and cannot be removed (409 CONFLICT)', async () => {
    const sim = makeSim();
    const view = await control(sim, "GET", "/sandboxes/default");
    expect(view.status).toBe(200);
    expect(view.json.stores.map((s: { prefix: string }) => s.prefix)).toEqual(["demo", "other", "lite"]);
    expect((await control(sim, "GET", "/sandboxes/default/clock")).json).toEqual({ now: "2026-01-01T00:00:00.000Z" });
    const refused = await control(sim, "DELETE", "/sandboxes/default");
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe("CONFLICT");
    expect((await call(sim, "GET", "/demo/v1/me")).status).toBe(200);
  });

  it("refuses a body it does not know with 400 VALIDATION_FAILED naming the field", async () => {
    const sim = makeSim();
    const reply = await control(sim, "POST", "/sandboxes", { seed: -1 });
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe("VALIDATION_FAILED");
    expect(reply.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["seed"]);
  });
});

describe("Sandboxes are isolated (spec, Authentication: a credential belongs to one store)", () => {
  it("a key of one sandbox is refused 401 in every other, the default one included, and the other way round", async () => {
    const sim = makeSim();
    const [a, b] = [await create(sim), await create(sim)];
    const foreign = [
      call(sim, "GET", "/demo-sb2/v1/me", { auth: `Bearer ${keyOf(a, "demo-sb1")}` }),
      call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${keyOf(a, "demo-sb1")}` }),
      call(sim, "GET", "/demo-sb1/v1/me", { auth: `Bearer ${sim.token("demo", "full")}` }),
      call(sim, "GET", "/demo-sb1/v1/me", { auth: `Bearer ${keyOf(b, "demo-sb2")}` }),
    ];
    for (const reply of await Promise.all(foreign)) {
      expect(reply.status).toBe(401);
      expect(reply.json.error.code).toBe("UNAUTHORIZED");
    }
    expect(keyOf(a, "demo-sb1")).not.toBe(keyOf(b, "demo-sb2"));
  });

  it("a reset, a clock move, a paused store and a fault of one sandbox change nothing in another", async () => {
    const sim = makeSim();
    const [a, b] = [await create(sim), await create(sim)];
    const created = await api(sim, b, "demo-sb2", "POST", "/brands", { name: "Kept" });
    expect(created.status).toBe(201);
    expect((await control(sim, "POST", "/sandboxes/sb1/clock", { advance_seconds: 3600 })).json).toEqual({
      now: "2026-01-01T01:00:00.000Z",
    });
    expect((await control(sim, "PATCH", "/sandboxes/sb1/stores/demo-sb1", { status: "paused" })).status).toBe(200);
    expect(
      (await control(sim, "POST", "/sandboxes/sb1/faults", { path: "/demo-sb1/v1/brands", status: 503 })).status,
    ).toBe(201);
    expect((await control(sim, "POST", "/sandboxes/sb1/reset", {})).status).toBe(200);

    expect((await control(sim, "GET", "/sandboxes/sb2/clock")).json).toEqual({ now: "2026-01-01T00:00:00.000Z" });
    expect((await control(sim, "GET", "/clock")).json).toEqual({ now: "2026-01-01T00:00:00.000Z" });
    const brand = await api(sim, b, "demo-sb2", "GET", `/brands/${created.json.data.id}`);
    expect(brand.status).toBe(200);
    expect((await api(sim, a, "demo-sb1", "GET", "/me")).status).toBe(200);
    expect((await call(sim, "GET", "/demo/v1/me")).status).toBe(200);
  });

  it("the token endpoint serves the sandbox whose client asks (spec, Authentication: OAuth)", async () => {
    const sim = makeSim();
    await create(sim);
    const b = await create(sim);
    const client = b.oauth_clients[0];
    const user = b.users.find((u) => u.store_prefix === "demo-sb2");
    if (!client || !user) throw new Error("the demo fixture has an OAuth client and a demo user");
    const redirect = client.redirect_uris[0] as string;
    const authorized = await control(sim, "POST", "/sandboxes/sb2/oauth/authorize", {
      user_id: user.id,
      client_id: client.client_id,
      redirect_uri: redirect,
      scope: "catalog:read",
      state: "s1",
      decision: "allow",
    });
    expect(authorized.status).toBe(200);
    const code = new URL(authorized.json.redirect_to).searchParams.get("code") as string;
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirect,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    const token = await sim.fetch(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(token.status).toBe(200);
    const access = ((await token.json()) as { access_token: string }).access_token;
    const me = await call(sim, "GET", "/demo-sb2/v1/me", { auth: `Bearer ${access}` });
    expect(me.status).toBe(200);
    expect((await call(sim, "GET", "/demo-sb1/v1/me", { auth: `Bearer ${access}` })).status).toBe(401);
  });
});

/** An answer with the sandbox's own name taken out, cursors included (they name the store's list). */
function unnamed(text: string, suffix: string): string {
  const cursors = text.replace(/"next_cursor":"([^"]+)"/g, (_, cursor: string) => {
    const plain = Buffer.from(cursor, "base64url").toString("utf8").replaceAll(suffix, "-sbX");
    return `"next_cursor":"${plain}"`;
  });
  return cursors.replaceAll(suffix, "-sbX");
}

describe("Sandboxes and the consent page (spec, Authentication: OAuth authorization code)", () => {
  it("the consent page signs in a user of the sandbox whose client asks, and redirects with a code its token endpoint takes", async () => {
    const sim = makeSim();
    const sandbox = sim.sandbox();
    const client = sandbox.view.oauth_clients[0];
    if (!client) throw new Error("the demo fixture has an OAuth client");
    const redirect = client.redirect_uris[0] as string;
    const params = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirect,
      scope: "catalog:read",
    };
    const post = (form: Record<string, string>) =>
      sim.fetch(`${ORIGIN}/oauth/authorize`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...params, ...form }).toString(),
        redirect: "manual",
      });
    const page = await sim.fetch(`${ORIGIN}/oauth/authorize?${new URLSearchParams(params)}`);
    expect(page.status).toBe(200);
    const signedIn = await post({ step: "sign_in", email: "admin@demo.example", password: "retail-sim" });
    expect(signedIn.status).toBe(200);
    const ticket = /name="ticket" value="([^"]+)"/.exec(await signedIn.text())?.[1] ?? "";
    const decided = await post({ step: "decide", ticket, decision: "allow" });
    expect(decided.status).toBe(302);
    const code = new URL(decided.headers.get("location") as string).searchParams.get("code") as string;
    const token = await sim.fetch(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirect,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }).toString(),
    });
    expect(token.status).toBe(200);
    const access = ((await token.json()) as { access_token: string }).access_token;
    expect((await call(sim, "GET", "/demo-sb1/v1/me", { auth: `Bearer ${access}` })).status).toBe(200);
    expect((await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${access}` })).status).toBe(401);
  });
});

describe("Sandboxes are deterministic", () => {
  it("two sandboxes of one seed, driven by the same requests interleaved with other traffic, answer the same bytes but for their own names", async () => {
    const sim = makeSim();
    const [a, noise, b] = [
      await create(sim, { seed: 5 }),
      await create(sim, { seed: 9 }),
      await create(sim, { seed: 5 }),
    ];
    const answers = { a: [] as string[], b: [] as string[] };
    const steps: [string, string, unknown?][] = [
      ["POST", "/brands", { name: "Same" }],
      ["GET", "/brands?limit=3"],
      ["GET", "/products?limit=2"],
      ["POST", "/tags", { name: "T" }],
      ["GET", "/me"],
    ];
    for (const [method, path, body] of steps) {
      const ra = await api(sim, a, "demo-sb1", method, path, body);
      await api(sim, noise, "demo-sb2", "POST", "/brands", { name: `noise ${path}` });
      await control(sim, "POST", "/sandboxes/sb2/clock", { advance_seconds: 60 });
      const rb = await api(sim, b, "demo-sb3", method, path, body);
      answers.a.push(`${ra.status} ${unnamed(ra.text, "-sb1")}`);
      answers.b.push(`${rb.status} ${unnamed(rb.text, "-sb3")}`);
    }
    expect(answers.b).toEqual(answers.a);
  });
});

describe("Sandboxes are bounded", () => {
  it("at the cap, POST /_sim/sandboxes answers 409 CONFLICT saying so; deleting one makes room", async () => {
    const sim = makeSim({ maxSandboxes: 2 });
    await create(sim);
    await create(sim);
    const refused = await control(sim, "POST", "/sandboxes", {});
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe("CONFLICT");
    expect(refused.json.error.message).toMatch(/2 live sandboxes/);
    expect((await control(sim, "DELETE", "/sandboxes/sb1")).status).toBe(204);
    expect((await call(sim, "GET", "/demo-sb1/v1/me", { auth: "Bearer rsk_gone" })).status).toBe(401);
    expect((await control(sim, "GET", "/sandboxes/sb1/clock")).status).toBe(404);
    expect((await create(sim)).id).toBe("sb3");
  });

  it("a sandbox idle for longer than its expiry is removed, and its stores stop answering", async () => {
    const sim = makeSim({ sandboxIdleSeconds: 0 });
    const first = await create(sim);
    await create(sim);
    expect((await control(sim, "GET", "/sandboxes/sb1")).status).toBe(404);
    expect((await api(sim, first, "demo-sb1", "GET", "/me")).status).toBe(401);
  });
});

describe("Sandboxes in process", () => {
  it("sim.sandbox() makes one whose handle has its own keys, clock and control operations", async () => {
    const sim = makeSim();
    const sandbox = sim.sandbox({ seed: 4 });
    expect(sandbox.id).toBe("sb1");
    const token = sandbox.token("demo-sb1", "full");
    const me = await call(sim, "GET", "/demo-sb1/v1/me", { auth: `Bearer ${token}` });
    expect(me.status).toBe(200);
    expect(sandbox.clock.advance(120)).toBe("2026-01-01T00:02:00.000Z");
    expect(sim.clock.now()).toBe("2026-01-01T00:00:00.000Z");
    sandbox.patchStore("demo-sb1", { status: "paused" });
    expect((await call(sim, "GET", "/demo-sb1/v1/me", { auth: `Bearer ${token}` })).status).toBe(402);
    sandbox.reset();
    expect((await call(sim, "GET", "/demo-sb1/v1/me", { auth: `Bearer ${token}` })).status).toBe(200);
    sandbox.remove();
    expect((await call(sim, "GET", "/demo-sb1/v1/me", { auth: `Bearer ${token}` })).status).toBe(401);
  });
});

/** A fixture document of ~1 MB: the demo store alone with 11,000 plain products. */
function megabyteFixture() {
  const demo = demoFixture(1);
  const store = demo.stores[0] as FixtureSpec["stores"][number];
  const products = Array.from({ length: 11_000 }, (_, i) => ({
    sku: `SKU-${i}`,
    name: `Product ${i}`,
    retail_price: 100 + i,
    description: "A plain product.",
  }));
  return {
    ...demo,
    stores: [{ ...store, catalog: { ...store.catalog, products }, customers: [], sales: [] }],
    users: demo.users.filter((u) => u.store_prefix === store.prefix),
  };
}

describe("docs/interfaces.md, Caps: world-bytes, the budget of every sandbox's world", () => {
  it("a creation loop from a 1 MB fixture ends in 409 CONFLICT within the budget; deletes give the bytes back", async () => {
    const fixture = megabyteFixture();
    const size = JSON.stringify(fixture).length;
    expect(size).toBeGreaterThan(900_000);
    expect(size).toBeLessThan(1024 * 1024);
    const budget = 32 * 2 ** 20;
    const sim = makeSim({ caps: { worldBytes: budget } });
    const bounds = sim.world.bounds;
    const start = bounds.worldBytesHeld;
    const made: string[] = [];
    let refused: Reply | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const reply = await control(sim, "POST", "/sandboxes", { fixture });
      if (reply.status === 201) made.push(reply.json.id);
      else refused = reply;
    }
    expect(made).toEqual(["sb1", "sb2"]);
    expectError(refused as Reply, 409, "CONFLICT");
    expect(errorOf(refused as Reply).message).toContain("--cap world-bytes");
    expect(bounds.worldBytesHeld).toBeLessThanOrEqual(budget);
    // A reset of the default sandbox to the fixture is refused alike, and changes nothing.
    const before = JSON.stringify(sim.snapshot());
    expectError(await control(sim, "POST", "/reset", { fixture }), 409, "CONFLICT");
    expect(JSON.stringify(sim.snapshot())).toBe(before);
    for (const id of made) expect((await control(sim, "DELETE", `/sandboxes/${id}`)).status).toBe(204);
    expect(bounds.worldBytesHeld).toBe(start);
    expect((await control(sim, "POST", "/sandboxes", { fixture })).json.id).toBe("sb3");
  });

  it("a default sandbox its budget cannot hold is refused at start (the command line exits 2)", () => {
    expect(() => makeSim({ caps: { worldBytes: 1000 } })).toThrow(FixtureError);
    expect(() => makeSim({ caps: { worldBytes: 1000 } })).toThrow("--cap world-bytes");
  });
});
