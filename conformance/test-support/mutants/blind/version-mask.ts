import type { SimRequest, SimResponse } from "../../../../src/http/types.js";
import { bodyJson, json, on, prefixOf, re, sub, withBody, withJson, type Next } from "./util.js";

// A server that forgets to bump product versions on some indirect change: after such a change the
// affected products keep showing the version (and updated_at) they had before, until they change
// again; a PATCH sending the shown version is accepted as current.

interface Mask {
  shown: string;
  shownUpdatedAt: string;
  real: string;
}

type Product = { id: string; version: string; updated_at: string; [k: string]: unknown };

export class VersionMask {
  private readonly masks = new Map<string, Mask>();

  clear(): void {
    this.masks.clear();
  }

  /** Products of the request's store matching `pick`, read through the API with the caller's credential (bounded). */
  async products(next: Next, req: SimRequest, pick: (p: Product) => boolean): Promise<Product[]> {
    const prefix = prefixOf(req);
    const found: Product[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const query: string = `limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await next({
        ...req,
        method: "GET",
        path: `/${prefix}/v1/products`,
        query,
        body: null,
        headers: { authorization: req.headers.authorization },
      });
      const b = json(res);
      if (res.status !== 200 || !Array.isArray(b?.data)) break;
      found.push(...b.data.filter(pick));
      if (!b.has_more || !b.next_cursor) break;
      cursor = b.next_cursor;
    }
    return found;
  }

  /** Runs `req`; when it succeeds, the `before` products keep their old versions. */
  async around(next: Next, req: SimRequest, before: Product[]): Promise<SimResponse> {
    const res = await next(req);
    if (res.status >= 300) return res;
    const prefix = prefixOf(req);
    for (const p of before) {
      const after = json(
        await next({
          ...req,
          method: "GET",
          path: `/${prefix}/v1/products/${p.id}`,
          query: "",
          body: null,
          headers: { authorization: req.headers.authorization },
        }),
      );
      const real = after?.data?.version;
      if (typeof real !== "string" || real === p.version) continue;
      const old = this.masks.get(p.id);
      this.masks.set(p.id, {
        shown: old?.real === p.version ? old.shown : p.version,
        shownUpdatedAt: old?.real === p.version ? old.shownUpdatedAt : p.updated_at,
        real,
      });
    }
    return res;
  }

  private applyDoc(doc: any): any {
    const m = doc && typeof doc === "object" ? this.masks.get(doc.id) : undefined;
    if (!m) return doc;
    if (doc.version === m.real)
      return { ...doc, version: m.shown, ...(doc.updated_at ? { updated_at: m.shownUpdatedAt } : {}) };
    this.masks.delete(doc.id);
    return doc;
  }

  /** Masks product documents in answers of /products routes. */
  response(req: SimRequest, res: SimResponse): SimResponse {
    const s = sub(req) ?? "";
    if (this.masks.size === 0 || !/^\/products(\/[^/]+)?$/.test(s) || !(res.status < 300 || res.status === 422))
      return res;
    const b = json(res);
    if (!b?.data) return res;
    return withJson(res, {
      ...b,
      data: Array.isArray(b.data) ? b.data.map((d: unknown) => this.applyDoc(d)) : this.applyDoc(b.data),
    });
  }

  /** A PATCH naming the shown version names the real one. */
  request(req: SimRequest): SimRequest {
    if (!on(req, "PATCH", re("/products/:id"))) return req;
    const id = decodeURIComponent((sub(req) ?? "").split("/")[2] ?? "");
    const m = this.masks.get(id);
    const body = bodyJson(req);
    if (!m || !body || typeof body !== "object") return req;
    const out = { ...body };
    for (const k of ["version", "expected_version"]) if (out[k] === m.shown) out[k] = m.real;
    return withBody(req, out);
  }
}
