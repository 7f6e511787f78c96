// Helpers for tests: a simulator on a manual clock and a compact way to call it in-process. Every simulator
// built here judges its responses against the OpenAPI document (response-validation.ts).
import { createSimulator, type Simulator, type SimulatorOptions } from "../simulator.js";
import { withResponseCheck } from "./response-validation.js";

export const ORIGIN = "http://sim.test";

/** `createSimulator` with the response check installed; fits the conformance runner's `simulator` option. */
export const checkedSimulator = (options: SimulatorOptions = {}): Simulator =>
  createSimulator(withResponseCheck(options));

/** A checked simulator on a manual clock, seed 1. */
export function makeSim(options: SimulatorOptions = {}): Simulator {
  return checkedSimulator({ clock: "manual", seed: 1, ...options });
}

export interface CallOptions {
  /** Name of a key of the store (`full`, `none`, `catalog:read`, ...) or a raw Authorization header via `auth`. */
  key?: string;
  /** Exact Authorization header value; overrides `key`. `null` sends none. */
  auth?: string | null;
  /** Store of the key; defaults to the path's prefix. */
  store?: string;
  body?: unknown;
  /** Raw body text (sent as is, with `contentType`). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or null for an empty body. */
  json: any;
  text: string;
}

/** `call(sim, "GET", "/demo/v1/me", {key: "full"})`. */
export async function call(sim: Simulator, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const store = options.store ?? path.split("/")[1] ?? "demo";
  if (options.auth !== undefined) {
    if (options.auth !== null) headers.authorization = options.auth;
  } else {
    headers.authorization = `Bearer ${sim.token(store, options.key ?? "full")}`;
  }
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  // docs/interfaces.md, Control plane: a /_sim write sends a JSON content type, with an empty body too.
  if (body !== undefined || (path.startsWith("/_sim") && method !== "GET"))
    headers["content-type"] = options.contentType ?? "application/json";
  const res = await sim.fetch(`${ORIGIN}${path}`, { method, headers, body, remoteAddress: options.remoteAddress });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null, text };
}
