import { it } from "vitest";
import { call, makeSim } from "/work/main/src/test-support/sim.js";
it("dump", async () => {
  const sim = makeSim();
  for (const p of ["/demo/v1/taxes", "/demo/v1/outlets", "/demo/v1/payment-types", "/demo/v1/sales?limit=200"]) {
    const r = await call(sim, "GET", p);
    console.log(p, r.status, JSON.stringify(r.json, null, 1));
  }
  const pr = await call(sim, "GET", "/demo/v1/products?limit=200");
  console.log(pr.json.data.map((p: any) => [p.id, p.sku, p.retail_price, p.has_inventory].join(" ")).join("\n"));
  const cu = await call(sim, "GET", "/demo/v1/customers?limit=200");
  console.log(cu.json.data.map((p: any) => [p.id, p.customer_code, p.is_walk_in].join(" ")).join("\n"));
});
