// The cost of the request journal and coverage (docs/interfaces.md, Journal and coverage): the same
// reads and a write against two simulators started alike (demo fixture, manual clock, no rate limits),
// one with the journal on (the default) and one with --no-journal, alternating rounds; the ratio on/off
// of each round and of the medians. docs/performance.md, The journal's cost.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, round, start, summary } from "./wrk.mjs";

export async function journalCost({ cli, tmp, rounds, wrk }) {
  const args = ["--port", "0", "--json", "--clock", "manual", "--no-rate-limits"];
  const on = await start(process.execPath, [cli, ...args]);
  const off = await start(process.execPath, [cli, ...args, "--no-journal"]);
  const stores = [on, off].map((s) => JSON.parse(s.line).stores[0]);
  const token = stores[0].keys[0].token;
  if (stores[1].keys[0].token !== token) throw new Error("journal bench: the two simulators differ");
  const first = await (
    await fetch(`${stores[0].base_url}/products?limit=1`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  const create = join(tmp, "journal-create.lua");
  writeFileSync(
    create,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '{"name":"Journal bench","retail_price":100}'\n`,
  );
  const scenarios = [
    ["GET /products/{id}", `/products/${first.data[0].id}`, undefined],
    ["GET /products?limit=50", "/products?limit=50", undefined],
    ["POST /products", "/products", create],
  ];
  const out = {};
  for (const [name, path, script] of scenarios) {
    const a = [];
    const b = [];
    for (let i = 0; i < rounds; i++) {
      a.push(wrk(`${stores[0].base_url}${path}`, { token, script }));
      b.push(wrk(`${stores[1].base_url}${path}`, { token, script }));
    }
    out[name] = {
      on: summary(a),
      off: summary(b),
      ratio: round(median(a.map((x) => x.rps)) / median(b.map((x) => x.rps))),
      paired_ratios: a.map((x, i) => round(x.rps / b[i].rps)),
    };
    console.error(`journal on/off, ${name}: ${out[name].ratio}x (rounds ${out[name].paired_ratios.join(", ")})`);
  }
  on.child.kill();
  off.child.kill();
  return out;
}
