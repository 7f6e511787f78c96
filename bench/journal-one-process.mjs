// Two simulators built alike in this one process (demo fixture, manual clock, no rate limits), journal on
// and off, each listening on its own port: the journal's cost over HTTP with the process's compiled code
// and heap shared, so what differs between the two is what recording does (bench/journal.mjs drives
// them). Prints one JSON line when both listen: their base URLs, the token and the first product's id.
//
//   node bench/journal-one-process.mjs <dist/src/simulator.js>
import { pathToFileURL } from "node:url";

const { createSimulator } = await import(pathToFileURL(process.argv[2]).href);
const ready = {};
for (const [name, journal] of [
  ["on", true],
  ["off", false],
]) {
  const sim = createSimulator({ clock: "manual", rateLimits: false, journal });
  await sim.listen(0, "127.0.0.1");
  const store = sim.credentials().stores[0];
  const token = store.keys[0].token;
  const first = await (
    await fetch(`${store.base_url}/products?limit=1`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  Object.assign(ready, { [name]: store.base_url, token, id: first.data[0].id });
}
process.stdout.write(`${JSON.stringify(ready)}\n`);
