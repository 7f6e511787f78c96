import { pathUnder } from "./target.js";

// The rows a request made, read from its answer: what the run, and a reproduction script, must delete.

/** A created row's path, from a create's answer: `/products/{id}` for a product or a variant, ... */
export function createdPaths(method: string, url: string, apiRoot: string, baseUrl: string, json: unknown): string[] {
  if (method !== "POST") return [];
  const path = pathUnder(url.split("?")[0] as string, apiRoot);
  const base = pathUnder(baseUrl, apiRoot);
  if (path === undefined || base === undefined || !path.startsWith(`${base}/`)) return [];
  const m = /^\/(products|customers|brands|categories|tags|suppliers)(\/[^/]+\/variants)?$/.exec(
    path.slice(base.length),
  );
  if (!m) return [];
  const data = (json as { data?: unknown } | undefined)?.data;
  const rows = Array.isArray(data) ? data : [data];
  return rows
    .map((row) => (row as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === "string" && id !== "" && !id.includes("/"))
    .map((id) => `/${m[1]}/${encodeURIComponent(id)}`);
}
