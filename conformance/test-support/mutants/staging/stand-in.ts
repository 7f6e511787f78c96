import { type Scope, SCOPES } from "../../../../src/contract/scopes.js";
import type { SimRequest, SimResponse } from "../../../../src/http/types.js";
import { sha256 } from "../../../../src/kernel/digest.js";
import { createRng } from "../../../../src/kernel/random.js";
import { createSimulator, type Simulator } from "../../../../src/simulator.js";
import type { Credentials, GivenKey } from "../../../credentials.js";
import { serveWithTransportChoices, type TransportServer } from "../honest/transport.js";
import { type BrokenVariant, brokenWrap } from "./broken.js";
import { startOtherTeam, type OtherTeam } from "./other-team.js";

export { BROKEN_VARIANTS, type BrokenVariant } from "./broken.js";

// A staging stand-in: the simulator behind a node:http front that behaves like staging infrastructure
// does, so tests can check that the conformance suite is a trustworthy release gate there.
//
// - The simulator runs on the system clock with rate limits on (spec, Limits) and without a control
//   plane: the front does not route `/_sim` (bare 404, as a load balancer answers a path it has no
//   route for), and the suite gets only credentials a QA team can make in the back office (spec,
//   Authentication 2; docs/conformance.md, Staging).
// - The API is served under a path before the store prefix (`/stg/eu`): `{api_root}` carries that path
//   (spec, Conventions). Every URL the simulator writes (credentials, `api_base_url`, the OpenAPI
//   document's server, image URLs) is rewritten to carry it too, as a backend configured with its
//   public URL would write it.
// - Every answer comes 30 to 150 ms late (seeded), chunked, closing its connection (honest/transport.ts).
// - The load balancer drops one GET in `dropEvery`: it reads the request, then closes the connection
//   without an answer, BEFORE the simulator sees it, so a dropped GET is never carried out (and is not
//   counted against any rate limit).
// - Another team writes to the same store with its own key (other-team.ts).
// - `broken` makes it one of three servers that break the spec (broken.ts); the broken wrapper sits
//   between the front and the simulator, so the defect holds over HTTP.

export interface StandInOptions {
  /** Seed of the simulator, the latency, the other team's choices and the failed writes. Default 1. */
  readonly seed?: number;
  /** The path the API is served under, before the store prefix. Default `/stg/eu`. */
  readonly pathPrefix?: string;
  /** Each answer's delay is drawn (seeded) from [min, max] milliseconds. Default 30 to 150. */
  readonly latencyMs?: { readonly min: number; readonly max: number };
  /** The load balancer drops the n-th GET of the API for every n that is a multiple of this; 0: none. Default 300. */
  readonly dropEvery?: number;
  /** The other team's writer runs while the stand-in does. Default true. */
  readonly writer?: boolean;
  /** Milliseconds between two of the other team's requests. Default 1000 (about one a second). */
  readonly writerIntervalMs?: number;
  /** One of the broken servers; left out: a correct one. */
  readonly broken?: BrokenVariant;
  /** `writes-500`: one write in this many fails. Default 100 (1%). */
  readonly failEvery?: number;
}

export interface StagingCredentials {
  /** The store's main full key (`--token`). */
  readonly token: string;
  /** What the suite is handed besides it, as `conformance({credentials})` takes it. */
  readonly credentials: Credentials;
  /** The same credentials as CLI options (`--key`, `--extra-token`, ...), without --target and --token. */
  readonly credentialArgs: readonly string[];
}

export interface StandInStats {
  /** Requests the front passed to the simulator, and GETs of the API among them (dropped ones counted). */
  readonly requests: number;
  readonly gets: number;
  /** GETs the load balancer dropped without an answer. */
  readonly dropped: number;
  /** Writes answered 500 by `writes-500` without being carried out. */
  readonly failedWrites: number;
  /** The other team's requests, and how many it got a 2xx for. */
  readonly writerRequests: number;
  readonly writerSucceeded: number;
}

/** A live row whose name or SKU the conformance run wrote (`rsconf-...`). */
export interface Leftover {
  readonly kind: string;
  readonly id: string;
  readonly name: string;
}

export interface StagingStandIn extends StagingCredentials {
  /** `http://127.0.0.1:port/stg/eu`: `{api_root}`. */
  readonly apiRoot: string;
  /** `{api_root}/demo/v1`: `{base_url}` of the store under test (`--target`). */
  readonly baseUrl: string;
  /** `--target <base_url> --token <token>` and the credential options: a CLI run's arguments but --out. */
  readonly args: readonly string[];
  /** The simulator behind the front (for reading its state; the suite never sees it). */
  readonly sim: Simulator;
  /** A digest of the store's data a run could change, the other team's rows left out (see storeRows). */
  storeDigest(): string;
  /** What `storeDigest` is a digest of, to show what changed. */
  storeRows(): Record<string, unknown[]>;
  /** Live rows whose name or SKU starts with `rsconf-`. */
  leftovers(): Leftover[];
  stats(): StandInStats;
  /** Stops the other team, then the server; every connection closed. */
  stop(): Promise<void>;
}

export const STORE = "demo";
const ALL_SCOPES: Scope[] = [...SCOPES];
/** The keys with chosen scopes the rules ask for (conformance/staging.test.ts); `none` has none. */
export const SCOPED_KEYS = ["none", ...SCOPES] as const;

/**
 * What a QA team makes in the back office before a staging run (docs/conformance.md, Staging): three
 * more full keys, a key for each scope set of SCOPED_KEYS, a key revoked at once; and what it is given:
 * a key of another store and of a Lite-plan store (each with its prefix) and an OAuth client.
 */
export function stagingCredentials(sim: Simulator): StagingCredentials {
  const token = sim.token(STORE, "full");
  const extra = [1, 2, 3].map((i) => sim.createKey(STORE, { name: `qa-extra-${i}`, scopes: ALL_SCOPES }).token);
  // Spec, Authentication 2: "Ticking a write scope also ticks its read scope."
  const keys: GivenKey[] = SCOPED_KEYS.map((name) => {
    const ticked: Scope[] =
      name === "none" ? [] : name.endsWith(":write") ? [name.replace(":write", ":read") as Scope, name] : [name];
    const key = sim.createKey(STORE, { name: `qa-${name}`, scopes: ticked });
    return { token: key.token, scopes: name === "none" ? [] : [name] };
  });
  const revokedKey = sim.createKey(STORE, { name: "qa-revoked", scopes: ALL_SCOPES });
  sim.revokeKey(revokedKey.id);
  const client = sim.credentials().oauth_clients[0];
  if (!client) throw new Error("the demo fixture has no OAuth client");
  const credentials: Credentials = {
    keys,
    extra,
    revoked: revokedKey.token,
    otherStore: `other=${sim.token("other", "full")}`,
    lite: `lite=${sim.token("lite", "full")}`,
    oauthClient: {
      client_id: client.client_id,
      client_secret: client.client_secret,
      redirect_uri: client.redirect_uris[0] as string,
    },
  };
  return { token, credentials, credentialArgs: credentialArgs(credentials) };
}

/** The CLI options that hand the suite these credentials (src/cli/conformance.ts). */
export function credentialArgs(c: Credentials): string[] {
  const args = [
    ...c.keys.flatMap((k) => ["--key", `${k.scopes.length === 0 ? "none" : k.scopes.join(",")}=${k.token}`]),
    ...c.extra.flatMap((t) => ["--extra-token", t]),
  ];
  if (c.revoked) args.push("--revoked-token", c.revoked);
  if (c.otherStore) args.push("--other-store-token", c.otherStore);
  if (c.lite) args.push("--lite-token", c.lite);
  if (c.oauthClient) {
    args.push("--oauth-client", `${c.oauthClient.client_id}:${c.oauthClient.client_secret}`);
    if (c.oauthClient.redirect_uri) args.push("--oauth-redirect-uri", c.oauthClient.redirect_uri);
  }
  return args;
}

/** A response's body as text, or undefined for a binary one. */
function textOf(res: SimResponse): string | undefined {
  const type = res.headers["content-type"] ?? "";
  if (!/^(application\/json|text\/)/.test(type)) return undefined;
  return typeof res.body === "string" ? res.body : res.body === null ? "" : Buffer.from(res.body).toString("utf8");
}

/**
 * Every URL the simulator wrote at the host's root (`http://host:port/...`), written under the front's
 * path instead: the simulator only knows its origin (SimulatorOptions.publicUrl takes no path).
 */
function underPrefix(prefix: string, next: (req: SimRequest) => Promise<SimResponse>) {
  return async (req: SimRequest): Promise<SimResponse> => {
    const res = await next(req);
    const root = `${req.origin}/`;
    const text = textOf(res);
    const location = res.headers["location"];
    const body = text?.includes(root) ? text.replaceAll(root, `${req.origin}${prefix}/`) : undefined;
    const moved = location?.startsWith(root) ? `${req.origin}${prefix}${location.slice(req.origin.length)}` : undefined;
    if (body === undefined && moved === undefined) return res;
    const { "content-length": _length, ...headers } = res.headers;
    return {
      ...res,
      headers: moved === undefined ? headers : { ...headers, location: moved },
      body: body ?? res.body,
    };
  };
}

/** The store's rows a run could change; rows of `excluded` ids (the other team's) left out. */
function storeRows(sim: Simulator, excluded: ReadonlySet<string>): Record<string, unknown[]> {
  const store = sim.snapshot().stores.find((s) => s.settings.prefix === STORE);
  if (!store) throw new Error(`no store ${STORE}`);
  type Row = { seq: number; deleted_at: number | null; value: { id: string } };
  // A live row, with its seq: the `version` the API shows, which moves with every change to the row
  // (spec, Resources and their fields), so a row changed and changed back still counts as changed.
  const live = (rows: readonly Row[]) =>
    rows
      .filter((r) => r.deleted_at === null && !excluded.has(r.value.id))
      .map((r) => ({ seq: r.seq, ...r.value }))
      .sort((a, b) => a.id.localeCompare(b.id));
  const products = live(store.catalog.products as readonly Row[]);
  const liveProducts = new Set(products.map((p) => p.id));
  return {
    products,
    brands: live(store.catalog.brands as readonly Row[]),
    categories: live(store.catalog.categories as readonly Row[]),
    tags: live(store.catalog.tags as readonly Row[]),
    suppliers: live(store.catalog.suppliers as readonly Row[]),
    customers: live(store.customers.customers as readonly Row[]),
    outlets: live(store.outlets as readonly Row[]),
    // Stock levels of the live products above (spec, Resources: InventoryLevel).
    stock: store.inventory.levels
      .filter((l) => liveProducts.has(l.product_id))
      .map((l) => ({ product_id: l.product_id, ...l.level }))
      .sort((a, b) => `${a.product_id}/${a.outlet_id}`.localeCompare(`${b.product_id}/${b.outlet_id}`)),
  };
}

const RUN_NAME = /^rsconf-/;
const NAME_FIELDS = ["name", "sku", "first_name", "last_name", "company_name", "customer_code", "email"];

/** Live rows carrying a name the run wrote. */
function leftoversOf(rows: Record<string, unknown[]>): Leftover[] {
  const out: Leftover[] = [];
  for (const [kind, list] of Object.entries(rows)) {
    if (kind === "stock") continue;
    for (const row of list as Record<string, unknown>[]) {
      const named = NAME_FIELDS.map((f) => row[f]).find((v) => typeof v === "string" && RUN_NAME.test(v));
      if (named !== undefined) out.push({ kind, id: String(row["id"]), name: String(named) });
    }
  }
  return out;
}

/** The delay of the n-th answer: drawn from [min, max] by the seed and n, the same on every run. */
export function latencyOf(seed: number, min: number, max: number): (n: number) => number {
  return (n) => (max <= min ? min : createRng(seed, `latency-${n}`).int(min, max));
}

/** Starts the stand-in on 127.0.0.1 (a free port), the other team's writer with it unless turned off. */
export async function startStagingStandIn(options: StandInOptions = {}): Promise<StagingStandIn> {
  const seed = options.seed ?? 1;
  const prefix = options.pathPrefix ?? "/stg/eu";
  const dropEvery = options.dropEvery ?? 300;
  const { min, max } = options.latencyMs ?? { min: 30, max: 150 };
  const sim = createSimulator({ clock: "system", seed, control: false });
  const given = stagingCredentials(sim);
  // The other team reaches the simulator itself: the front's drops, latency and broken variant are the
  // suite's weather, not the other team's.
  const direct = sim.handle;
  const counts = { requests: 0, gets: 0, dropped: 0, failedWrites: 0 };
  const broken = options.broken
    ? brokenWrap(options.broken, { seed, failEvery: options.failEvery ?? 100, failed: () => counts.failedWrites++ })
    : undefined;
  sim.handle = underPrefix(prefix, broken ? broken(direct) : direct);
  let server: TransportServer | undefined;
  let team: OtherTeam | undefined;
  try {
    server = await serveWithTransportChoices(sim, {
      latencyMs: latencyOf(seed, min, max),
      pathPrefix: prefix,
      unrouted: (path) => path === "/_sim" || path.startsWith("/_sim/"),
      drop: (req) => {
        counts.requests++;
        if (req.method !== "GET" || !/^\/[^/]+\/v1\//.test(req.path)) return false;
        counts.gets++;
        const dropped = dropEvery > 0 && counts.gets % dropEvery === 0;
        if (dropped) counts.dropped++;
        return dropped;
      },
    });
  } catch (error) {
    await sim.close();
    throw error;
  }
  const apiRoot = server.url;
  const origin = new URL(apiRoot).origin;
  team =
    options.writer === false
      ? undefined
      : startOtherTeam(sim, direct, { seed, intervalMs: options.writerIntervalMs ?? 1000, origin, store: STORE });
  const baseUrl = `${apiRoot}/${STORE}/v1`;
  const excluded = () => team?.touched ?? new Set<string>();
  let stopped = false;
  return {
    ...given,
    apiRoot,
    baseUrl,
    args: ["--target", baseUrl, "--token", given.token, ...given.credentialArgs],
    sim,
    storeDigest: () => sha256(JSON.stringify(storeRows(sim, excluded()))),
    storeRows: () => storeRows(sim, excluded()),
    leftovers: () => leftoversOf(storeRows(sim, excluded())),
    stats: () => ({ ...counts, writerRequests: team?.requests ?? 0, writerSucceeded: team?.succeeded ?? 0 }),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await team?.stop();
      await server?.close();
      await sim.close();
    },
  };
}
