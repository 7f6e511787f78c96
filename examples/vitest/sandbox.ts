// A sandbox of the shared simulator for one test file, made over HTTP through the control plane, as any
// language can: POST /_sim/sandboxes tagged with the run's name, DELETE its control_url when the file is done.
// Its coverage outlives it: the run's report (GET /_sim/runs/{run}/coverage) counts every sandbox of the run.
import { inject } from "vitest";
import { type Json, RetailClient } from "./client.js";

export interface Sandbox {
  id: string;
  run: string;
  control_url: string;
  api_root: string;
  stores: { prefix: string; base_url: string; keys: { id: string; name: string; token: string }[] }[];
  oauth_clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
  users: { id: string; email: string; store_prefix: string; role: string }[];
}

const json = { "content-type": "application/json" };

/** A sandbox of this run, on a manual clock (it moves only when a test moves it). */
export async function createSandbox(body: object = {}): Promise<Sandbox> {
  const res = await fetch(`${inject("simUrl")}/_sim/sandboxes`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ run: inject("run"), clock: "manual", ...body }),
  });
  if (res.status !== 201) throw new Error(`POST /_sim/sandboxes answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Sandbox;
}

/** Deletes the sandbox (in afterAll): its exchanges stay counted in the run's coverage. */
export async function removeSandbox(sb: Sandbox | undefined): Promise<void> {
  if (!sb) return;
  const res = await fetch(sb.control_url, { method: "DELETE" });
  if (res.status !== 204) throw new Error(`DELETE ${sb.control_url} answered ${res.status}: ${await res.text()}`);
}

/** A control route of the sandbox: `control(sb, "POST", "/clock", { advance_seconds: 60 })`. */
export async function control(sb: Sandbox, method: string, path: string, body?: object): Promise<Response> {
  return fetch(`${sb.control_url}${path}`, { method, headers: json, body: body && JSON.stringify(body) });
}

/** A control call that must succeed (2xx); answers its JSON body (undefined for 204). */
export async function controlOk<T = Json>(sb: Sandbox, method: string, path: string, body?: object): Promise<T> {
  const res = await control(sb, method, path, body);
  if (!res.ok) throw new Error(`${method} ${sb.control_url}${path} answered ${res.status}: ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** Puts the sandbox back to its state when made, clock, rate-limit windows and faults included. */
export const reset = (sb: Sandbox): Promise<unknown> => controlOk(sb, "POST", "/reset", {});

/** Moves the sandbox's clock; answers the new time. */
export const advance = async (sb: Sandbox, seconds: number): Promise<string> =>
  (await controlOk<{ now: string }>(sb, "POST", "/clock", { advance_seconds: seconds })).now;

/** A store of the sandbox (`demo`, `other` or `lite`): its prefix, base URL and a key of it. */
export function store(sb: Sandbox, name = "demo", keyName = "full") {
  const found = sb.stores.find((s) => s.prefix === `${name}-${sb.id}`);
  const key = found?.keys.find((k) => k.name === keyName);
  if (!found || !key) throw new Error(`no key ${keyName} in the store ${name}-${sb.id}`);
  return { prefix: found.prefix, baseUrl: found.base_url, key: key.token, keyId: key.id };
}

/** The SDK under test on a store of the sandbox, with one of its keys. */
export const clientOf = (sb: Sandbox, name = "demo", keyName = "full"): RetailClient =>
  new RetailClient(store(sb, name, keyName).baseUrl, store(sb, name, keyName).key);
