// A sandbox of the shared simulator for one test file, made over HTTP through the control plane
// (POST /_sim/sandboxes; DELETE its control_url when done), as any language can.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

export interface Sandbox {
  id: string;
  control_url: string;
  stores: { prefix: string; base_url: string; keys: { name: string; token: string }[] }[];
  oauth_clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
  users: { id: string; email: string; store_prefix: string; role: string }[];
}

const json = { "content-type": "application/json" };

export async function createSandbox(body: object = {}): Promise<Sandbox> {
  const res = await fetch(`${inject("simUrl")}/_sim/sandboxes`, {
    method: "POST",
    headers: json,
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST /_sim/sandboxes answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Sandbox;
}

/** A control route of the sandbox: `control(sb, "POST", "/clock", { advance_seconds: 60 })`. */
export async function control(sb: Sandbox, method: string, path: string, body?: object): Promise<Response> {
  return fetch(`${sb.control_url}${path}`, { method, headers: json, body: body && JSON.stringify(body) });
}

/** The demo store's base URL and a key of it. */
export function demo(sb: Sandbox, keyName = "full"): { baseUrl: string; key: string; prefix: string } {
  const store = sb.stores.find((s) => s.prefix.startsWith("demo-"));
  const key = store?.keys.find((k) => k.name === keyName);
  if (!store || !key) throw new Error(`no key ${keyName} in the demo store`);
  return { baseUrl: store.base_url, key: key.token, prefix: store.prefix };
}

/**
 * Deletes the file's sandbox, first saving its spec coverage (`GET {control_url}/coverage`) for the global
 * setup to print when the run ends. A simulator without the route answers 404: that is noted, not an error.
 */
export async function removeSandbox(sb: Sandbox): Promise<void> {
  const res = await fetch(`${sb.control_url}/coverage`);
  const dir = inject("coverageDir");
  if (res.status === 200) writeFileSync(join(dir, `${sb.id}.json`), await res.text());
  else if (res.status === 404) writeFileSync(join(dir, `${sb.id}.missing`), "");
  else throw new Error(`GET ${sb.control_url}/coverage answered ${res.status}: ${await res.text()}`);
  const gone = await fetch(sb.control_url, { method: "DELETE" });
  if (gone.status !== 204) throw new Error(`DELETE ${sb.control_url} answered ${gone.status}`);
}
