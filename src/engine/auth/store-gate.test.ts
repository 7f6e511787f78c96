// Tests of the store status and plan refusals (retail-api-v1.md: Errors, PLAN_REQUIRED, PLAN_USERS_EXCEEDED,
// RETAILER_*; interfaces.md section 3: PATCH /_sim/stores/{prefix} {plan, status}) where the conformance
// rule of store states (each status on /me and /products) does not reach: every endpoint, the other stores,
// the fixture's lite store and the order of status and plan. Written from the spec.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";

type Status =
  | "active"
  | "paused"
  | "trial_decision_required"
  | "plan_users_exceeded"
  | "cancelled"
  | "suspended"
  | "not_found";

/** Status table of the spec's Errors section, with the control plane's status names. */
const STATUSES: [Status, number, string][] = [
  ["paused", 402, "RETAILER_PAUSED"],
  ["trial_decision_required", 402, "TRIAL_DECISION_REQUIRED"],
  ["plan_users_exceeded", 402, "PLAN_USERS_EXCEEDED"],
  ["cancelled", 403, "RETAILER_CANCELLED"],
  ["suspended", 403, "RETAILER_SUSPENDED"],
  ["not_found", 403, "RETAILER_NOT_FOUND"],
];

/** Endpoints checked for each state; the `full` key answers 200 on each while the store is active. */
const ENDPOINTS = [
  "/me",
  "/store",
  "/outlets",
  "/payment-types",
  "/taxes",
  "/inventory/adjustment-reasons",
  "/openapi.json",
];

describe("Spec, Errors: a store status that blocks API calls answers its 402/403 code on every endpoint", () => {
  it.each(STATUSES)("status %s answers %i %s on every endpoint, including /me", async (status, http, code) => {
    const sim = makeSim();
    sim.patchStore("demo", { status });
    for (const path of ENDPOINTS) {
      const reply = await call(sim, "GET", `/demo/v1${path}`, { key: "full" });
      expect({ path, status: reply.status, code: reply.json?.error?.code }).toEqual({ path, status: http, code });
      expectError(reply, http, code);
    }
  });

  it.each(STATUSES)("status %s, then back to active: /me answers 200 again", async (status, http, code) => {
    const sim = makeSim();
    expect((await call(sim, "GET", "/demo/v1/me", { key: "full" })).status).toBe(200);
    sim.patchStore("demo", { status });
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "full" }), http, code);
    sim.patchStore("demo", { status: "active" });
    for (const path of ENDPOINTS) {
      const reply = await call(sim, "GET", `/demo/v1${path}`, { key: "full" });
      expect({ path, status: reply.status }).toEqual({ path, status: 200 });
    }
  });

  it.each(STATUSES)("status %s of demo leaves the stores other and lite as they were", async (status) => {
    const sim = makeSim();
    sim.patchStore("demo", { status });
    for (const path of ENDPOINTS) {
      const reply = await call(sim, "GET", `/other/v1${path}`, { key: "full" });
      expect({ path, status: reply.status }).toEqual({ path, status: 200 });
    }
    expectError(await call(sim, "GET", "/lite/v1/me", { key: "full" }), 402, "PLAN_REQUIRED");
  });

  it.each(STATUSES)("status %s of the other store leaves demo working", async (status, http, code) => {
    const sim = makeSim();
    sim.patchStore("other", { status });
    expectError(await call(sim, "GET", "/other/v1/me", { key: "full" }), http, code);
    expect((await call(sim, "GET", "/demo/v1/me", { key: "full" })).status).toBe(200);
  });
});

describe("Spec, Errors: PLAN_REQUIRED (402) when the plan lacks API access (store lite, plan lite)", () => {
  it("the lite store answers 402 PLAN_REQUIRED on every endpoint, including /me", async () => {
    const sim = makeSim();
    for (const path of ENDPOINTS) {
      const reply = await call(sim, "GET", `/lite/v1${path}`, { key: "full" });
      expect({ path, status: reply.status, code: reply.json?.error?.code }).toEqual({
        path,
        status: 402,
        code: "PLAN_REQUIRED",
      });
      expectError(reply, 402, "PLAN_REQUIRED");
    }
  });

  it("moving demo to plan lite answers 402 PLAN_REQUIRED on every endpoint; back to growth answers 200", async () => {
    const sim = makeSim();
    sim.patchStore("demo", { plan: "lite" });
    for (const path of ENDPOINTS) {
      expectError(await call(sim, "GET", `/demo/v1${path}`, { key: "full" }), 402, "PLAN_REQUIRED");
    }
    sim.patchStore("demo", { plan: "growth" });
    for (const path of ENDPOINTS) {
      const reply = await call(sim, "GET", `/demo/v1${path}`, { key: "full" });
      expect({ path, status: reply.status }).toEqual({ path, status: 200 });
    }
  });

  it("moving the lite store to plan growth lets its key work", async () => {
    const sim = makeSim();
    sim.patchStore("lite", { plan: "growth" });
    const reply = await call(sim, "GET", "/lite/v1/me", { key: "full" });
    expect(reply.status).toBe(200);
    expect(reply.json.data.domain_prefix).toBe("lite");
  });

  it("demo on plan lite leaves the other store working", async () => {
    const sim = makeSim();
    sim.patchStore("demo", { plan: "lite" });
    expect((await call(sim, "GET", "/other/v1/me", { key: "full" })).status).toBe(200);
  });
});

describe("Choice: the store status is checked before the plan", () => {
  it.each(STATUSES)("plan lite with status %s answers %i %s, not PLAN_REQUIRED", async (status, http, code) => {
    const sim = makeSim();
    sim.patchStore("demo", { plan: "lite", status });
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "full" }), http, code);
  });

  it.each(STATUSES)("the lite store (plan lite) with status %s answers %i %s", async (status, http, code) => {
    const sim = makeSim();
    sim.patchStore("lite", { status });
    expectError(await call(sim, "GET", "/lite/v1/me", { key: "full" }), http, code);
  });

  it("plan lite and paused, then active again: PLAN_REQUIRED remains until the plan changes", async () => {
    const sim = makeSim();
    sim.patchStore("demo", { plan: "lite", status: "paused" });
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "full" }), 402, "RETAILER_PAUSED");
    sim.patchStore("demo", { status: "active" });
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "full" }), 402, "PLAN_REQUIRED");
    sim.patchStore("demo", { plan: "growth" });
    expect((await call(sim, "GET", "/demo/v1/me", { key: "full" })).status).toBe(200);
  });
});
