import { describe, expect, it } from "vitest";
import { call, makeSim } from "../test-support/sim.js";

describe("Spec, Resources: Identity (GET /me)", () => {
  it("answers store_name, domain_prefix, scopes and key for the full key", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/me", { key: "full" });
    expect(reply.status).toBe(200);
    const full = sim.credentials().stores[0]!.keys.find((k) => k.name === "full")!;
    expect(reply.json).toEqual({
      data: {
        store_name: "Demo Outfitters",
        domain_prefix: "demo",
        scopes: ["catalog:read", "catalog:write", "inventory:read", "inventory:write", "customers:read", "customers:write", "sales:read"],
        key: { id: full.id, name: "full" },
      },
    });
  });
});
