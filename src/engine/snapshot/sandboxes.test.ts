import { describe, expect, it } from "vitest";
import type { Snapshot } from "../../contract/schemas/snapshot.js";
import type { Simulator } from "../../simulator.js";
import { expectError } from "../../test-support/errors.js";
import { makeSim } from "../../test-support/sim.js";
import { PUBLIC_URL, Wire, writeMix } from "../../test-support/snapshots.js";

// docs/interfaces.md, Snapshots (Into another sandbox): a snapshot restored into the sandbox it was taken
// from keeps everything; into another one its data is kept (ids, versions, rows) but its store prefixes
// take the target's suffix and every credential is new, so the keys of one sandbox stay refused by the others.

interface Made {
  id: string;
  stores: { prefix: string; keys: { name: string; token: string }[] }[];
  oauth_clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
}

const tokenOf = (made: Made, prefix: string, name = "full") =>
  made.stores.find((s) => s.prefix === prefix)?.keys.find((k) => k.name === name)?.token as string;

async function snapshotOf(wire: Wire, base = ""): Promise<Snapshot> {
  const sent = await wire.control("GET", `${base}/snapshot`);
  expect(sent.status).toBe(200);
  return sent.json as Snapshot;
}

async function mixed(): Promise<{ sim: Simulator; wire: Wire; snap: Snapshot }> {
  const sim = makeSim({ publicUrl: PUBLIC_URL });
  const wire = new Wire(sim);
  await writeMix(wire);
  return { sim, wire, snap: await snapshotOf(wire) };
}

/** A list's rows without its cursor, which names the store. */
const rows = async (wire: Wire, path: string, token: string) => (await wire.send("GET", path, { token })).json.data;

describe("docs/interfaces.md, Snapshots: into another sandbox", () => {
  it("POST /_sim/sandboxes {fixture: snapshot}: the same rows under demo-sb1; each sandbox refuses the other's keys", async () => {
    const { wire, snap } = await mixed();
    const made = (await wire.control("POST", "/sandboxes", { fixture: snap })).json as Made;
    expect(made.id).toBe("sb1");
    expect(made.stores.map((s) => s.prefix)).toEqual(["demo-sb1", "other-sb1", "lite-sb1"]);
    const restored = await snapshotOf(wire, "/sandboxes/sb1");
    const own = tokenOf(made, "demo-sb1");
    const main = wire.sim.token("demo", "full");
    expect(own).not.toBe(main);
    for (const list of ["products?include_deleted=true&limit=200", "customers?include_deleted=true", "sales?limit=200"])
      expect(await rows(wire, `/demo-sb1/v1/${list}`, own)).toEqual(await rows(wire, `/demo/v1/${list}`, main));
    expect((await wire.send("GET", "/demo-sb1/v1/store", { token: own })).json.data.domain_prefix).toBe("demo-sb1");
    expectError(await wire.send("GET", "/demo-sb1/v1/me", { token: main }), 401, "UNAUTHORIZED");
    expectError(await wire.send("GET", "/demo/v1/me", { token: own }), 401, "UNAUTHORIZED");
    // Every key, the revoked one included, has a token of its own; OAuth clients are new too.
    const keys = snap.credentials.filter((c) => c.kind === "api_key");
    expect(restored.credentials.map((c) => [c.id, c.state])).toEqual(keys.map((c) => [c.id, c.state]));
    for (const [i, key] of restored.credentials.entries()) expect(key.token).not.toBe(keys[i]?.token);
    expect(made.oauth_clients[0]?.client_id).not.toBe(snap.oauth.clients[0]?.client_id);
    // Nothing tied to the other sandbox's secrets or paths: tokens, codes, sign-ins, records, windows.
    expect(restored.oauth.codes.length + restored.oauth.refresh_tokens.length + restored.oauth.sign_ins.length).toBe(0);
    expect([restored.idempotency, restored.rate_limits]).toEqual([[], []]);
    expect(restored.oauth.connections.map((c) => [c.id, c.store_prefix, c.client_id])).toEqual(
      snap.oauth.connections.map((c) => [c.id, `${c.store_prefix}-sb1`, made.oauth_clients[0]?.client_id]),
    );
    // The sandbox's own client signs in on the shared consent page, and its code works at its prefixes only.
    const client = made.oauth_clients[0] as Made["oauth_clients"][number];
    const page = await wire.send(
      "GET",
      `/oauth/authorize?client_id=${client.client_id}&response_type=code&scope=catalog:read&redirect_uri=${encodeURIComponent(client.redirect_uris[0] as string)}`,
      { token: null },
    );
    expect(page.status).toBe(200);
  });

  it("ids continue the snapshot's stream in the sandbox too: its next product id is the default's next one", async () => {
    const { wire, snap } = await mixed();
    const made = (await wire.control("POST", "/sandboxes", { fixture: snap })).json as Made;
    const body = { name: "Next", retail_price: 1 };
    const inSandbox = await wire.send("POST", "/demo-sb1/v1/products", { body, token: tokenOf(made, "demo-sb1") });
    const inDefault = await wire.send("POST", "/demo/v1/products", { body });
    expect(inSandbox.json.data.id).toBe(inDefault.json.data.id);
  });

  it("restored into the sandbox it came from (its reset), everything is kept: tokens, records, windows", async () => {
    const sim = makeSim({ publicUrl: PUBLIC_URL });
    const wire = new Wire(sim);
    const sb = sim.sandbox();
    await wire.send("POST", "/demo-sb1/v1/products", {
      token: sb.token("demo-sb1", "full"),
      headers: { "idempotency-key": "k1" },
      body: { name: "In sb1", retail_price: 5 },
    });
    await wire.control("POST", "/sandboxes/sb1/faults", { path: "/demo-sb1/v1/taxes", status: 500 });
    const taken = await snapshotOf(wire, "/sandboxes/sb1");
    expect(taken.sandbox).toBe("sb1");
    await wire.control("POST", "/sandboxes/sb1/reset", {});
    expect(JSON.stringify(await snapshotOf(wire, "/sandboxes/sb1"))).not.toBe(JSON.stringify(taken));
    expect((await wire.control("POST", "/sandboxes/sb1/reset", { fixture: taken })).status).toBe(200);
    expect(JSON.stringify(await snapshotOf(wire, "/sandboxes/sb1"))).toBe(JSON.stringify(taken));
    const replay = await wire.send("POST", "/demo-sb1/v1/products", {
      token: sb.token("demo-sb1", "full"),
      headers: { "idempotency-key": "k1" },
      body: { name: "In sb1", retail_price: 5 },
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });

  it("a sandbox's snapshot into another sandbox and into a fresh simulator's default: suffixes rewritten, fault paths too", async () => {
    const sim = makeSim({ publicUrl: PUBLIC_URL });
    const wire = new Wire(sim);
    const sb1 = sim.sandbox();
    await wire.control("POST", "/sandboxes/sb1/faults", { path: "/demo-sb1/v1/taxes", status: 503 });
    const taken = await snapshotOf(wire, "/sandboxes/sb1");
    const made = (await wire.control("POST", "/sandboxes", { fixture: taken })).json as Made;
    expect(made.stores.map((s) => s.prefix)).toEqual(["demo-sb2", "other-sb2", "lite-sb2"]);
    expect((await wire.control("GET", "/sandboxes/sb2/faults")).json.map((f: { path: string }) => f.path)).toEqual([
      "/demo-sb2/v1/taxes",
    ]);
    expect((await wire.send("GET", "/demo-sb2/v1/taxes", { token: tokenOf(made, "demo-sb2") })).status).toBe(503);
    expectError(
      await wire.send("GET", "/demo-sb2/v1/me", { token: sb1.token("demo-sb1", "full") }),
      401,
      "UNAUTHORIZED",
    );
    expectError(await wire.send("GET", "/demo-sb1/v1/me", { token: tokenOf(made, "demo-sb2") }), 401, "UNAUTHORIZED");
    const fresh = makeSim({ publicUrl: PUBLIC_URL, fixture: taken });
    expect(fresh.credentials().stores.map((s) => s.prefix)).toEqual(["demo", "other", "lite"]);
    expect(fresh.token("demo", "full")).not.toBe(taken.credentials[0]?.token);
    expect((await new Wire(fresh).send("GET", "/demo/v1/taxes")).status).toBe(503);
  });

  it("a sandbox made from a snapshot starts at its clock, and its reset goes back to it", async () => {
    const { wire, snap } = await mixed();
    const made = (await wire.control("POST", "/sandboxes", { fixture: snap, clock: "system" })).json;
    expect(made.clock).toEqual({ now: "2026-01-01T01:01:30.000Z", mode: "manual" });
    await wire.control("POST", "/sandboxes/sb1/clock", { advance_seconds: 600 });
    await wire.send("POST", "/demo-sb1/v1/products", {
      token: tokenOf(made, "demo-sb1"),
      body: { name: "x", retail_price: 1 },
    });
    const before = JSON.stringify(await snapshotOf(wire, "/sandboxes/sb1"));
    await wire.control("POST", "/sandboxes/sb1/reset", {});
    expect((await wire.control("GET", "/sandboxes/sb1/clock")).json).toEqual({ now: "2026-01-01T01:01:30.000Z" });
    const after = await snapshotOf(wire, "/sandboxes/sb1");
    expect(JSON.stringify(after)).not.toBe(before);
    expect(after.stores[0]?.last_seq).toBe(snap.stores[0]?.last_seq);
  });
});
