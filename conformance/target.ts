import { request as undiciRequest } from "undici";
import type { Simulator } from "../src/simulator.js";

// Where the suite sends requests: an in-process simulator (no socket) or any deployment over HTTP
// (undici). The same rules run unchanged against either.

export interface TargetRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export interface TargetResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface Target {
  /** How the report names it: `in-process simulator (seed 1)` or the base URL. */
  readonly label: string;
  /** `{base_url}` of the store under test, e.g. `http://127.0.0.1:4747/demo/v1`. */
  readonly baseUrl: string;
  /** `{api_root}/_sim` when the target has a control plane the run may use. */
  readonly controlUrl?: string;
  /** Sent as `Authorization: Bearer` on control-plane calls, when the control plane is protected. */
  readonly controlToken?: string;
  /** True for a live deployment: failures are re-run once, and pacing uses real time. */
  readonly live: boolean;
  send(req: TargetRequest): Promise<TargetResponse>;
  close?(): Promise<void>;
}

/**
 * `{api_root}` of a base URL (spec, Conventions: `{base_url}` = `{api_root}/{store_prefix}/v1`): what is left
 * without `/{store_prefix}/v1`, any path before the store prefix kept (`http://host/stg` of
 * `http://host/stg/acme/v1`).
 */
export const apiRootOf = (baseUrl: string): string => baseUrl.replace(/\/+$/, "").replace(/\/[^/]+\/v1$/, "");

/**
 * The path of `url` under `apiRoot` (`/acme/v1/products`, `/oauth/token`), or undefined for a URL elsewhere
 * (another origin, or outside the root's path): paths are read under `{api_root}`, never from the host's root.
 */
export function pathUnder(url: string, apiRoot: string): string | undefined {
  let at: URL;
  let root: URL;
  try {
    at = new URL(url);
    root = new URL(apiRoot);
  } catch {
    return undefined;
  }
  if (at.origin !== root.origin) return undefined;
  const base = root.pathname.replace(/\/+$/, "");
  if (base !== "" && !at.pathname.startsWith(`${base}/`)) return undefined;
  return at.pathname.slice(base.length);
}

export function inProcessTarget(sim: Simulator, label: string): Target {
  const apiRoot = "http://retail-sim.in-process";
  return {
    label,
    baseUrl: `${apiRoot}/demo/v1`,
    controlUrl: `${apiRoot}/_sim`,
    live: false,
    async send(req) {
      const res = await sim.fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        headers[k] = v;
      });
      return { status: res.status, headers, body: await res.text() };
    },
  };
}

export function httpTarget(baseUrl: string, controlUrl?: string, controlToken?: string): Target {
  return {
    label: baseUrl,
    baseUrl: baseUrl.replace(/\/$/, ""),
    controlUrl: controlUrl?.replace(/\/$/, ""),
    controlToken,
    live: true,
    async send(req) {
      const res = await undiciRequest(req.url, {
        method: req.method as "GET",
        headers: req.headers,
        body: req.body,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
      return { status: res.statusCode, headers, body: await res.body.text() };
    },
  };
}
