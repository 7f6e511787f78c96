import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import type { Sent } from "../../model/translate.js";
import { pathUnder } from "../../target.js";
import { apiRootOf, givenKeys } from "../support/given.js";
import { closure, prefixOfBaseUrl, secret } from "../support/access.js";
import { bodyOf as answerOf, controlStores, dataOf, idOf, isObject, listOf, rowsOf, stringsOf } from "../../shapes.js";

// What the generated sequences know of the target: the rows they saw in its answers (in the target's
// ids), the credentials they hold, and the keyed requests they sent. Commands pick their arguments
// from here when they run, so a sequence fast-check shrinks still names rows that exist. Nothing here
// judges an answer: every answer is compared with the model's by the run (conformance/model/).

export type Kind =
  | "products"
  | "brands"
  | "categories"
  | "tags"
  | "suppliers"
  | "customers"
  | "sales"
  | "outlets"
  | "reasons"
  | "groups";

export interface Row {
  readonly id: string;
  live: boolean;
  doc: any;
  /** The versions the row was seen with, oldest first (a stale one to send back). */
  readonly versions: string[];
  /** Made by the run: the only rows a sequence changes or deletes (besides refusals the spec fixes). */
  ours: boolean;
}

export interface Credential {
  readonly token: string;
  /** Its id in the back office (a key the sequence made through the control plane). */
  readonly id?: string;
  /** Scopes it holds (a write scope also grants its read scope); empty for one that is refused. */
  readonly scopes: readonly string[];
  readonly label: string;
}

/** A request sent with an `Idempotency-Key`, to send again (a replay) or reuse the key with another body. */
export interface Keyed {
  readonly method: string;
  readonly path: string;
  readonly key: string;
  readonly body: string;
  readonly token: string;
}

export interface OAuthApp {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

/** A defect of a request: a change that makes it wrong in one way, named for the report. */
export interface Defect {
  readonly name: string;
  apply(req: Sent): Sent;
}

/** A command of a generated sequence: made by fast-check from abstract choices, run against the session. */
export interface Command {
  run(s: Session): Promise<void>;
  toString(): string;
}

/** A command whose fast-check output reads as what it does (`createProduct(sku case, tags 3) +missing-scope`). */
export function command(label: string, run: (s: Session) => Promise<void>): Command {
  return { run, toString: () => label, [fc.toStringMethod]: () => label } as Command;
}

const KINDS: readonly Kind[] = [
  "products",
  "brands",
  "categories",
  "tags",
  "suppliers",
  "customers",
  "sales",
  "outlets",
  "reasons",
  "groups",
];

/** The collections a POST creates a row in (by path under base_url): the kind it is known as. */
const CREATES: Readonly<Record<string, Kind>> = {
  "/products": "products",
  "/customers": "customers",
  "/brands": "brands",
  "/categories": "categories",
  "/tags": "tags",
  "/suppliers": "suppliers",
};

export class Session {
  readonly rows = new Map<Kind, Map<string, Row>>(KINDS.map((k) => [k, new Map()]));
  /** The run's full key first, then keys with fewer scopes, then refused ones (`scopes` empty). */
  readonly credentials: Credential[] = [];
  readonly keyed: Keyed[] = [];
  readonly apps: OAuthApp[] = [];
  /** Users of the store on the consent screen (control plane): the admin first. */
  readonly users: { id: string; role: string; prefix: string; email: string; password: string }[] = [];
  /** Stock levels last seen, by `product/outlet` (to send the same `on_hand` again). */
  readonly levels = new Map<string, number>();
  /** Cursors the target handed out, by list path. */
  readonly cursors = new Map<string, string>();
  /** Access and refresh tokens, authorization codes (with their PKCE verifier) the sequences obtained. */
  readonly tokens: { access: string; refresh: string; scopes: string[] }[] = [];
  readonly codes: { code: string; verifier?: string; app: OAuthApp }[] = [];
  readonly prefix: string;
  readonly apiRoot: string;
  /** Another store's prefix and a row id of it (tenant isolation), when the run has one. */
  other?: { prefix: string; token: string; ids: string[] };
  private loaded = false;

  constructor(readonly ctx: RuleContext) {
    this.prefix = prefixOfBaseUrl(ctx);
    this.apiRoot = apiRootOf(ctx);
  }

  get control(): boolean {
    return this.ctx.hasControl;
  }

  /** A unique name for what the sequence creates (the run's prefix keeps shared data apart). */
  name(what: string): string {
    return this.ctx.name(what);
  }

  /** Reads what the sequences start from: the store's reference rows, and with a control plane its rows and keys. */
  async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    this.credentials.push({
      token: this.ctx.token,
      scopes: closure(["catalog:write", "inventory:write", "customers:write", "sales:read"]),
      label: "full",
    });
    for (const k of givenKeys(this.ctx))
      this.credentials.push({ token: k.token, scopes: k.scopes, label: `key ${k.scopes.join(",") || "none"}` });
    const lists: [Kind, string][] = [
      ["outlets", "/outlets"],
      ["reasons", "/inventory/adjustment-reasons"],
      ["categories", "/categories"],
      ["brands", "/brands"],
      ["tags", "/tags"],
      ["suppliers", "/suppliers"],
      ["groups", "/customer-groups"],
    ];
    // The rows others made are theirs: only with a control plane (nobody else writing) does a sequence use them.
    if (this.control) lists.push(["products", "/products"], ["customers", "/customers"], ["sales", "/sales"]);
    for (const [kind, path] of lists) {
      const reply = await this.ctx.call("GET", `${path}${path.includes("adjustment") ? "" : "?limit=200"}`);
      if (reply.status === 200) for (const doc of rowsOf(reply) ?? []) this.learn(kind, doc);
    }
    if (!this.control) return;
    const made = await this.ctx.control("GET", "/credentials");
    const doc = answerOf(made);
    const stores = controlStores(doc);
    for (const store of stores)
      for (const key of store.keys ?? []) {
        secret(this.ctx, key.token);
        if (store.prefix === this.prefix && typeof key.token === "string" && key.token !== this.ctx.token)
          this.credentials.push({ token: key.token, scopes: closure(stringsOf(key.scopes)), label: `key ${key.name}` });
      }
    const other = stores.find((s) => s.prefix !== this.prefix && s.plan !== "lite" && (s.keys ?? []).length > 0);
    const otherToken = other?.keys?.[0]?.token;
    if (other && typeof other.prefix === "string" && typeof otherToken === "string") {
      // A row of another store: its id must answer as unknown here (tenant isolation).
      const reply = await this.ctx.send(
        "GET",
        `${this.apiRoot}/${encodeURIComponent(other.prefix)}/v1/products?limit=5`,
        {
          token: otherToken,
        },
      );
      const ids = (rowsOf<unknown>(reply) ?? [])
        .map((p) => (isObject(p) ? p.id : undefined))
        .filter((id: unknown): id is string => typeof id === "string");
      this.other = { prefix: other.prefix, token: otherToken, ids };
    }
    for (const c of listOf(doc?.oauth_clients)) {
      secret(this.ctx, c.client_secret);
      const uris = stringsOf(c.redirect_uris);
      if (typeof c.client_id === "string" && typeof c.client_secret === "string" && uris[0] !== undefined)
        this.apps.push({ clientId: c.client_id, clientSecret: c.client_secret, redirectUri: uris[0] });
    }
    for (const u of listOf(doc?.users))
      this.users.push({
        id: String(u.id),
        role: String(u.role),
        prefix: String(u.store_prefix),
        email: String(u.email),
        password: String(u.password),
      });
    // A second client, so that a code can be presented by a client it was not given to.
    const first = this.apps[0];
    if (first && this.apps.length < 2) {
      const registered = await this.ctx.control("POST", "/oauth/clients", {
        name: this.name("app"),
        redirect_uris: [first.redirectUri],
      });
      const c = answerOf(registered);
      if (typeof c?.client_id === "string" && typeof c?.client_secret === "string") {
        secret(this.ctx, c.client_secret);
        this.apps.push({ clientId: c.client_id, clientSecret: c.client_secret, redirectUri: first.redirectUri });
      }
    }
  }

  learn(kind: Kind, doc: any, ours = false): void {
    if (typeof doc?.id !== "string") return;
    const rows = this.rows.get(kind) as Map<string, Row>;
    let row = rows.get(doc.id);
    if (row) {
      row.doc = doc;
      row.live = true;
      row.ours ||= ours;
    } else {
      row = { id: doc.id, live: true, doc, versions: [], ours };
      rows.set(doc.id, row);
    }
    if (typeof doc.version === "string" && row.versions.at(-1) !== doc.version) row.versions.push(doc.version);
  }

  gone(kind: Kind, id: string): void {
    const row = this.rows.get(kind)?.get(id);
    if (row) row.live = false;
  }

  /** Rows the sequences may change: live ones the run made. */
  static readonly mine = (r: Row): boolean => r.live && r.ours;

  /** The n-th row of a kind (modulo how many match), or undefined when none does. */
  pick(kind: Kind, n: number, where: (row: Row) => boolean = (r) => r.live): Row | undefined {
    const all = [...(this.rows.get(kind)?.values() ?? [])].filter(where);
    return all.length === 0 ? undefined : all[Math.abs(n) % all.length];
  }

  /** A credential of the store holding `scope` (or lacking it: `lacking`), the n-th of those. */
  credential(n: number, scope: string | null, lacking = false): Credential | undefined {
    const all = this.credentials.filter((c) =>
      scope === null ? c.scopes.length > 0 : c.scopes.includes(scope) !== lacking,
    );
    return all.length === 0 ? undefined : all[Math.abs(n) % all.length];
  }

  /**
   * Sends a request; `alternatives` are the same request with some of its problems repaired (each of
   * its problems alone). The target's refusal must be the model's to one of them: a request the
   * generator made has no problem it does not know of, so none given means the model's answer only.
   */
  async send(req: Sent, alternatives: readonly Sent[] = []): Promise<Reply> {
    const { authorization, ...headers } = req.headers;
    const token = authorization === undefined ? null : authorization.replace(/^Bearer /, "");
    const options = {
      headers:
        authorization === undefined || /^Bearer \S+$/.test(authorization) ? headers : { ...headers, authorization },
      token: authorization === undefined ? null : /^Bearer \S+$/.test(authorization) ? token : undefined,
      ...(req.body === undefined ? {} : { raw: req.body }),
      asked: { alternatives },
    };
    const reply = await this.ctx.send(req.method, req.url, options);
    this.keepCreated(req, reply);
    return reply;
  }

  /**
   * Whatever a request created (a replay after its window, a key in another case, another credential's
   * key space) is known and deleted at the end of the run, whichever command sent it.
   */
  private keepCreated(req: Sent, reply: Reply): void {
    const path = pathUnder(req.url, this.ctx.run.target.baseUrl);
    const kind = req.method === "POST" && path !== undefined ? CREATES[path] : undefined;
    const doc = dataOf<{ id?: unknown }>(reply);
    const id = idOf(reply);
    if (kind === undefined || !is2xx(reply) || id === undefined) return;
    // A replay hands back a row already known (and perhaps deleted since): only a new one is learned.
    if (!this.rows.get(kind)?.has(id)) this.learn(kind, doc, true);
    this.ctx.track(`/${kind}/${id}`);
  }

  /** A request to `{base_url}` + path with the run's full key. */
  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Sent {
    return {
      method,
      url: `${this.ctx.run.target.baseUrl}${path}`,
      headers: {
        authorization: `Bearer ${this.ctx.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    };
  }

  /**
   * Sends `base` with its defects applied. The target may answer as the model does to the request with
   * one defect alone, to `base` itself, or to any of `repairs` (`base` with a problem of its own fixed:
   * another product, a valid reason, one line of a batch) with the defects applied.
   */
  async sendWith(base: Sent, defects: readonly Defect[], repairs: readonly Sent[] = []): Promise<Reply> {
    const apply = (r: Sent) => defects.reduce((x, d) => d.apply(x), r);
    const alone =
      defects.length > 1 ? [...defects.map((d) => d.apply(base)), base] : defects.length === 1 ? [base] : [];
    return this.send(apply(base), [...alone, ...repairs.map(apply)]);
  }
}

/** A header of a request (names in any case). */
export const headerOf = (req: Sent, name: string): string | undefined =>
  Object.entries(req.headers).find(([k]) => k.toLowerCase() === name)?.[1];

export const withHeader = (req: Sent, name: string, value: string | undefined): Sent => {
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.toLowerCase() !== name));
  return { ...req, headers: value === undefined ? headers : { ...headers, [name]: value } };
};

export const withBody = (req: Sent, body: unknown): Sent => ({
  ...req,
  body: typeof body === "string" ? body : JSON.stringify(body),
  headers: headerOf(req, "content-type") ? req.headers : { ...req.headers, "content-type": "application/json" },
});

export const bodyOf = (req: Sent): any => {
  try {
    return req.body === undefined ? undefined : JSON.parse(req.body);
  } catch {
    return undefined;
  }
};

export const is2xx = (reply: Reply): boolean => reply.status >= 200 && reply.status < 300;
