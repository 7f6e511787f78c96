// Tests of the bounds on what the control plane keeps per sandbox (docs/interfaces.md, Control plane):
// at most 1,000 faults in place (every API request looks through them) and outcomes for at most 10,000
// image URLs; past either, the control call answers 409 CONFLICT and nothing is kept.
import { describe, expect, it } from "vitest";
import { makeSim } from "../test-support/sim.js";
import { control } from "../test-support/oauth.js";
import { expectError } from "../test-support/errors.js";
import { MAX_FAULTS } from "./faults.js";
import { MAX_IMAGE_OUTCOMES } from "./catalog/images.js";

describe("docs/interfaces.md, Control plane: POST /_sim/faults keeps at most 1,000 faults", () => {
  it("the 1,001st fault answers 409 CONFLICT; after DELETE /_sim/faults one can be added again", async () => {
    const sim = makeSim();
    expect(MAX_FAULTS).toBe(1_000);
    for (let i = 0; i < MAX_FAULTS; i++) {
      const made = await control(sim, "POST", "/_sim/faults", { path: `/demo/v1/x${i}`, status: 503 });
      expect(made.status).toBe(201);
    }
    const refused = await control(sim, "POST", "/_sim/faults", { path: "/demo/v1/me", status: 503 });
    expectError(refused, 409, "CONFLICT");
    expect(refused.json.error.message).toBe(
      "A sandbox holds at most 1000 faults: clear some (DELETE /_sim/faults) first.",
    );
    expect(sim.world.faults.list()).toHaveLength(MAX_FAULTS);
    expect((await control(sim, "DELETE", "/_sim/faults")).status).toBe(204);
    expect((await control(sim, "POST", "/_sim/faults", { path: "/demo/v1/me", status: 503 })).status).toBe(201);
  });
});

describe("docs/interfaces.md, Control plane: POST /_sim/images keeps outcomes for at most 10,000 URLs", () => {
  it("a 10,001st URL answers 409 CONFLICT; a URL already set can still be changed", async () => {
    const sim = makeSim();
    expect(MAX_IMAGE_OUTCOMES).toBe(10_000);
    for (let i = 0; i < MAX_IMAGE_OUTCOMES; i++)
      sim.control.setImageOutcome({ body: { url: `https://img.example/${i}.png`, outcome: "fail" } });
    const refused = await control(sim, "POST", "/_sim/images", { url: "https://img.example/new.png", outcome: "ok" });
    expectError(refused, 409, "CONFLICT");
    const changed = await control(sim, "POST", "/_sim/images", { url: "https://img.example/7.png", outcome: "busy" });
    expect(changed.json).toEqual({ url: "https://img.example/7.png", outcome: "busy" });
    expect(sim.world.images.outcomeOf("https://img.example/7.png")).toBe("busy");
    expect(sim.world.images.outcomeOf("https://img.example/new.png")).toBe("ok");
  });
});
