// Spec, Customers: a customer's deletion erases their personal details ("permanently erase personal
// details"), and Limits: a retry with the same Idempotency-Key replays the stored answer. Erasure reaches
// the stored answers too (docs/spec-choices.md, Idempotency): a replay of the create that made the
// customer answers the same status with the customer as it reads after erasure, and no personal detail
// of theirs is left anywhere in the simulator.
import { describe, expect, it } from "vitest";
import type { Snapshot } from "../../contract/schemas/snapshot.js";
import type { Simulator } from "../../simulator.js";
import { FULL_CUSTOMER } from "../../test-support/customers.js";
import { reachableText } from "../../test-support/reachable.js";
import { call, makeSim, ORIGIN } from "../../test-support/sim.js";

const P = "/demo/v1/customers";

/** Personal details of FULL_CUSTOMER that appear nowhere else in the demo fixture. */
const DETAILS = [
  "FULL-1",
  "Fiona",
  "fiona@full.example",
  "+1 555 0001",
  "+1 555 0002",
  "https://full.example",
  "Full Ltd",
  "Likes mugs",
  "1990-02-28",
  "1 Main St",
  "TX-1",
];

/** The stored document through the control plane, as it reads now (with `deleted_at`). */
async function stored(sim: Simulator, id: string): Promise<Record<string, unknown>> {
  const res = await sim.fetch(`${ORIGIN}/_sim/stores/demo/customers/${id}`, { method: "GET", headers: {} });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const create = (sim: Simulator, key: string, body: unknown = FULL_CUSTOMER) =>
  call(sim, "POST", P, { body, headers: { "idempotency-key": key } });

describe("Spec, Customers: erasure reaches stored replays", () => {
  it("before erasure the replay shows the customer; after it, the same status with the customer as it reads now", async () => {
    const sim = makeSim();
    const made = await create(sim, "make-fiona");
    expect(made.status).toBe(201);
    const id = made.json.data.id as string;
    const before = await create(sim, "make-fiona");
    expect(before.headers.get("idempotent-replayed")).toBe("true");
    expect(before.text).toBe(made.text);

    const erased = await call(sim, "DELETE", `${P}/${id}`);
    expect(erased.status).toBe(204);
    const replay = await create(sim, "make-fiona");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const { deleted_at, ...now } = await stored(sim, id);
    expect(deleted_at).toBe("2026-01-01T00:00:00.000Z");
    expect(replay.json).toEqual({ data: now });
    expect(replay.json.data.first_name).toBe("Erased");
    expect(replay.json.data.email).toBeNull();
    expect(replay.json.data.customer_code).toMatch(/^ERASED-.{10}$/);
    for (const detail of DETAILS) expect(replay.text).not.toContain(detail);
  });

  it("no personal detail of the erased customer is left anywhere the simulator keeps state", async () => {
    const sim = makeSim();
    const made = await create(sim, "make-fiona");
    // A refused create of the same details under another key of the store: its stored answer (a 409)
    // names no detail, and the request it answers is kept only as a digest.
    const other = await call(sim, "POST", P, {
      key: "customers:write",
      body: { ...FULL_CUSTOMER, customer_code: "FULL-1" },
      headers: { "idempotency-key": "again" },
    });
    expect(other.status).toBe(409);
    for (const detail of DETAILS) expect(reachableText(sim, detail), detail).not.toEqual([]);
    await call(sim, "DELETE", `${P}/${made.json.data.id}`);
    for (const detail of DETAILS) expect(reachableText(sim, detail), detail).toEqual([]);
  });

  it("a simulator restored from a snapshot taken before the erasure still erases the stored replay", async () => {
    const before = makeSim();
    const fiona = await create(before, "make-fiona");
    const restored = makeSim({ fixture: JSON.parse(JSON.stringify(before.snapshot())) as Snapshot });
    expect((await create(restored, "make-fiona")).text).toBe(fiona.text);
    await call(restored, "DELETE", `${P}/${fiona.json.data.id}`);
    const replay = await create(restored, "make-fiona");
    expect(replay.status).toBe(201);
    expect(replay.json.data.first_name).toBe("Erased");
    // Only the document it was started from, which a reset returns to, still has them (docs/spec-choices.md).
    const fromStart = (path: string) => path.startsWith("root.sandboxes.main.settings.fixture.");
    for (const detail of DETAILS)
      expect(
        reachableText(restored, detail).filter((path) => !fromStart(path)),
        detail,
      ).toEqual([]);
  });

  it("another customer's stored create is left as it was", async () => {
    const sim = makeSim();
    const fiona = await create(sim, "make-fiona");
    const gus = await create(sim, "make-gus", { first_name: "Gus", email: "gus@example.com" });
    await call(sim, "DELETE", `${P}/${fiona.json.data.id}`);
    const replay = await create(sim, "make-gus", { first_name: "Gus", email: "gus@example.com" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(gus.text);
  });

  it("the replay after erasure is a replay: it creates nothing and the code stays free", async () => {
    const sim = makeSim();
    const made = await create(sim, "make-fiona");
    await call(sim, "DELETE", `${P}/${made.json.data.id}`);
    await create(sim, "make-fiona");
    const again = await call(sim, "POST", P, { body: FULL_CUSTOMER });
    expect(again.status).toBe(201);
    expect(again.json.data.id).not.toBe(made.json.data.id);
  });
});
