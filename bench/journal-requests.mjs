// The journal benches' requests: through `sim.handle` (bench/journal-inproc.mjs, bench/journal-memory.mjs),
// the same scenarios as over HTTP (bench/journal.mjs, bench/journal-ab.mjs), against a simulator's first store.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const ORIGIN = "http://127.0.0.1:8080";

/** The create's body. */
const CREATE = '{"name":"Journal bench","retail_price":100}';
const BODY = new TextEncoder().encode(CREATE);

/** Writes wrk's script for the create into `dir`; its path. */
export function createScript(dir) {
  const path = join(dir, "journal-create.lua");
  writeFileSync(
    path,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '${CREATE}'\n`,
  );
  return path;
}

/** Each scenario's name and its request [method, path, query, body] for a target. */
export const SCENARIOS = [
  ["GET /products/{id}", (t) => ["GET", `${t.prefix}/products/${t.id}`, "", null]],
  ["GET /products?limit=50", (t) => ["GET", `${t.prefix}/products`, "limit=50", null]],
  ["POST /products", (t) => ["POST", `${t.prefix}/products`, "", BODY]],
];

/** A simulator's first store as the scenarios address it: its path prefix, its key, its first product. */
export async function target(sim) {
  const store = sim.credentials(ORIGIN).stores[0];
  const prefix = new URL(store.base_url).pathname;
  const token = store.keys[0].token;
  const first = await (
    await sim.fetch(`${ORIGIN}${prefix}/products?limit=1`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  return { prefix, token, id: first.data[0].id };
}
