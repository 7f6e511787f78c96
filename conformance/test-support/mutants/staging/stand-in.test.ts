import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { atPlusOne } from "./broken.js";
import { latencyOf, type StagingStandIn, type StandInOptions, startStagingStandIn } from "./stand-in.js";

// The staging stand-in itself (not the conformance suite): its front, its other team, its digest of the
// store and its broken variants, each seen over HTTP.

let standIn: StagingStandIn | undefined;

afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
});

/** A stand-in without latency, drops or other team unless asked for. */
async function start(options: StandInOptions = {}): Promise<StagingStandIn> {
  standIn = await startStagingStandIn({ latencyMs: { min: 0, max: 0 }, dropEvery: 0, writer: false, ...options });
  return standIn;
}

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request with node:http (no connection reuse, no retry); rejects when the connection closes unanswered. */
function send(
  url: string,
  options: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Raw> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "GET",
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const json = (raw: Raw): any => JSON.parse(raw.body);

/** Waits (a few ms at a time, 5 s at most) until `ok` holds. */
async function until(ok: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !ok(); waited += 5) {
    if (waited > 5000) throw new Error(`waited 5 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("the front: path prefix, no control plane, latency, dropped GETs", () => {
  it("serves the API under /stg/eu (spec, Conventions: {base_url} = {api_root}/{store_prefix}/v1), nothing at the host's root", async () => {
    const s = await startStagingStandIn({ writer: false });
    standIn = s;
    const origin = new URL(s.apiRoot).origin;
    expect(s.apiRoot).toBe(`${origin}/stg/eu`);
    expect(s.baseUrl).toBe(`${origin}/stg/eu/demo/v1`);
    const started = performance.now();
    const me = await send(`${s.baseUrl}/me`, { token: s.token });
    // One answer with the default latency: 30 ms at least.
    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
    expect(me.status).toBe(200);
    expect(json(me).data).toMatchObject({ domain_prefix: "demo", key: { name: "full" } });
    const atRoot = await send(`${origin}/demo/v1/me`, { token: s.token });
    expect([atRoot.status, atRoot.body]).toEqual([404, "Not Found"]);
    // Spec, What the service does 6: the OpenAPI document's server URL is the store's base URL, path included.
    const doc = json(await send(`${s.baseUrl}/openapi.json`, { token: s.token }));
    expect(doc.servers.map((x: { url: string }) => x.url)).toEqual([s.baseUrl]);
  });

  it("answers /_sim under the prefix with a bare 404, as a load balancer without that route does", async () => {
    const s = await start();
    for (const path of ["/_sim", "/_sim/clock", "/_sim/credentials", "/_sim/reset"]) {
      const res = await send(`${s.apiRoot}${path}`, { method: path.endsWith("reset") ? "POST" : "GET" });
      expect([path, res.status, res.headers["content-type"], res.body]).toEqual([path, 404, "text/plain", "Not Found"]);
    }
  });

  it("draws each answer's delay from 30 to 150 ms by the seed and the answer's number", () => {
    const one = Array.from({ length: 200 }, (_, n) => latencyOf(1, 30, 150)(n));
    expect(Math.min(...one)).toBeGreaterThanOrEqual(30);
    expect(Math.max(...one)).toBeLessThanOrEqual(150);
    expect(new Set(one).size).toBeGreaterThan(50);
    expect(Array.from({ length: 200 }, (_, n) => latencyOf(1, 30, 150)(n))).toEqual(one);
    expect(Array.from({ length: 200 }, (_, n) => latencyOf(2, 30, 150)(n))).not.toEqual(one);
  });

  it("drops every third GET (dropEvery 3) unanswered, before the simulator sees it: the rate limit does not count it (spec, Limits: 120 per minute)", async () => {
    const s = await start({ dropEvery: 3 });
    const outcomes: (number | string)[] = [];
    let last: Raw | undefined;
    for (let i = 1; i <= 4; i++) {
      try {
        last = await send(`${s.baseUrl}/me`, { token: s.token });
        outcomes.push(last.status);
      } catch (error) {
        outcomes.push((error as NodeJS.ErrnoException).code ?? "error");
      }
    }
    expect(outcomes).toEqual([200, 200, "ECONNRESET", 200]);
    expect(s.stats()).toMatchObject({ gets: 4, dropped: 1 });
    // Three requests reached the simulator: 117 of the key's 120 left.
    expect(last?.headers["ratelimit"]).toMatch(/^limit=120, remaining=117, reset=\d+$/);
    // A write is never dropped.
    const made = await send(`${s.baseUrl}/brands`, { method: "POST", token: s.token, body: { name: "rsconf-a-b-1" } });
    expect(made.status).toBe(201);
  });
});

describe("the other team", () => {
  it("writes to the same store with its own key, names not starting with rsconf-, and stops with the stand-in", async () => {
    const s = await start({ writer: true, writerIntervalMs: 2 });
    await until(() => s.stats().writerSucceeded >= 12, "twelve writes of the other team");
    const products = json(await send(`${s.baseUrl}/products?limit=200`, { token: s.token })).data;
    const theirs = products.filter((p: { name: string }) => p.name.startsWith("Team B item"));
    expect(theirs.length).toBeGreaterThan(0);
    expect(products.filter((p: { name: string }) => p.name.startsWith("rsconf-"))).toEqual([]);
    const keys = s.sim.credentials().stores.find((x) => x.prefix === "demo")!.keys;
    expect(keys.filter((k) => k.name === "other-team").map((k) => k.scopes.length)).toEqual([4]);
    await s.stop();
    const after = s.stats().writerRequests;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(s.stats().writerRequests).toBe(after);
    await expect(send(`${s.baseUrl}/me`, { token: s.token })).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});

describe("storeDigest and leftovers", () => {
  it("hold still through reads and the other team's writes, and move with a write of an rsconf- client until it is deleted", async () => {
    const s = await start({ writer: true, writerIntervalMs: 2 });
    const before = s.storeDigest();
    for (const path of ["/me", "/products", "/customers", "/brands", "/outlets"])
      expect((await send(`${s.baseUrl}${path}`, { token: s.token })).status, path).toBe(200);
    await until(() => s.stats().writerSucceeded >= 8, "eight writes of the other team");
    expect(s.storeDigest()).toBe(before);
    expect(s.leftovers()).toEqual([]);
    const made = json(
      await send(`${s.baseUrl}/products`, {
        method: "POST",
        token: s.token,
        body: { name: "rsconf-r1-product-1", retail_price: 1234 },
      }),
    ).data;
    expect(s.storeDigest()).not.toBe(before);
    expect(s.leftovers()).toEqual([{ kind: "products", id: made.id, name: "rsconf-r1-product-1" }]);
    // Spec, Delete rules: a deleted product is soft deleted, hidden from reads: no longer a live row.
    expect((await send(`${s.baseUrl}/products/${made.id}`, { method: "DELETE", token: s.token })).status).toBe(204);
    expect(s.leftovers()).toEqual([]);
    expect(s.storeDigest()).toBe(before);
  });

  it("moves when a row that was there before is changed", async () => {
    const s = await start();
    const before = s.storeDigest();
    const brand = json(await send(`${s.baseUrl}/brands`, { token: s.token })).data[0];
    const renamed = await send(`${s.baseUrl}/brands/${brand.id}`, {
      method: "PATCH",
      token: s.token,
      body: { name: `${brand.name} 2` },
    });
    expect(renamed.status).toBe(200);
    expect(s.storeDigest()).not.toBe(before);
    expect(s.leftovers()).toEqual([]);
  });
});

describe("the broken variants show their defect over HTTP", () => {
  it("offset-timestamps: every timestamp at +01:00, the same instant (breaks What the service does 5: UTC ending in Z)", async () => {
    const s = await start({ broken: "offset-timestamps" });
    const customers = json(await send(`${s.baseUrl}/customers?limit=1`, { token: s.token })).data;
    const stored = s.sim.snapshot().stores.find((x) => x.settings.prefix === "demo")!.customers.customers;
    const row = stored.find((r) => r.value.id === customers[0].id)!.value;
    const utc = new Date(row.created_at).toISOString();
    expect(utc).toMatch(/Z$/);
    expect(customers[0].created_at).toBe(atPlusOne(utc));
    expect(customers[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+01:00$/);
    expect(Date.parse(customers[0].created_at)).toBe(row.created_at);
    expect(atPlusOne("2026-11-28T05:00:00.000Z")).toBe("2026-11-28T06:00:00.000+01:00");
    expect(atPlusOne("2026-12-31T23:30:00Z")).toBe("2027-01-01T00:30:00+01:00");
  });

  it("replay-header-dropped: a replay answered without Idempotent-Replayed: true (Limits, Idempotency), which the correct stand-in sends", async () => {
    const replayHeaders = async (options: StandInOptions) => {
      const s = await start(options);
      const post = () =>
        send(`${s.baseUrl}/customers`, {
          method: "POST",
          token: s.token,
          headers: { "idempotency-key": "rsconf-replay-1" },
          body: { first_name: "rsconf-r1-customer-1" },
        });
      const first = await post();
      const again = await post();
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(json(again).data.id).toBe(json(first).data.id);
      expect(first.headers["idempotent-replayed"]).toBeUndefined();
      await s.stop();
      return again.headers["idempotent-replayed"];
    };
    expect(await replayHeaders({})).toBe("true");
    expect(await replayHeaders({ broken: "replay-header-dropped" })).toBeUndefined();
  });

  it("writes-500: the failed write answers 500 INTERNAL in the error envelope (Errors) with its RateLimit headers, and is not carried out", async () => {
    const s = await start({ broken: "writes-500", failEvery: 2 });
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const res = await send(`${s.baseUrl}/brands`, {
        method: "POST",
        token: s.token,
        body: { name: `rsconf-w-${i}` },
      });
      statuses.push(res.status);
      if (res.status === 500) {
        expect(json(res)).toEqual({
          error: { code: "INTERNAL", message: "The server failed; retry after a short delay." },
        });
        expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(res.headers["ratelimit"]).toMatch(/^limit=120, remaining=\d+, reset=\d+$/);
      }
    }
    // One write in two, which ones set by the seed (1) and the write's number.
    expect(statuses).toEqual([500, 201, 500, 201]);
    expect(s.stats().failedWrites).toBe(2);
    expect(
      s
        .leftovers()
        .map((l) => l.name)
        .sort(),
    ).toEqual(["rsconf-w-2", "rsconf-w-4"]);
    // Reads are never failed.
    expect((await send(`${s.baseUrl}/brands`, { token: s.token })).status).toBe(200);
  });
});
