import type { SimRequest, SimResponse } from "../../../../src/http/types.js";
import { createRng } from "../../../../src/kernel/random.js";
import type { Simulator } from "../../../../src/simulator.js";

// Another team writing to the staging store while a run goes on: one request every `intervalMs`, with
// its own key (catalog and customers), creating products and customers, renaming some of its products
// and deleting some of its rows. Its names never start with `rsconf-` (the run's prefix), and it only
// touches rows it made, so `touched` names every row it made or changed.

export interface OtherTeamOptions {
  readonly seed: number;
  readonly intervalMs: number;
  /** `http://127.0.0.1:port`, the origin its requests are addressed to. */
  readonly origin: string;
  readonly store: string;
}

export interface OtherTeam {
  /** Ids of every row it created (renamed and deleted ones too). */
  readonly touched: ReadonlySet<string>;
  readonly requests: number;
  /** Requests answered 2xx. */
  readonly succeeded: number;
  /** Ends the loop; resolves once its request in flight, if any, is answered. */
  stop(): Promise<void>;
}

type Handler = (req: SimRequest) => Promise<SimResponse>;

/** Starts writing at once; `handle` is the simulator's own handler (not the stand-in's front). */
export function startOtherTeam(sim: Simulator, handle: Handler, options: OtherTeamOptions): OtherTeam {
  const key = sim.createKey(options.store, {
    name: "other-team",
    scopes: ["catalog:read", "catalog:write", "customers:read", "customers:write"],
  }).token;
  const rng = createRng(options.seed, "other-team");
  const touched = new Set<string>();
  const products: string[] = [];
  const customers: string[] = [];
  const state = { requests: 0, succeeded: 0, n: 0 };
  const base = `/${options.store}/v1`;

  const send = async (method: string, path: string, body?: unknown): Promise<any> => {
    state.requests++;
    const res = await handle({
      method,
      path: `${base}${path}`,
      query: "",
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
      remoteAddress: "10.20.0.7",
      origin: options.origin,
    });
    if (res.status < 200 || res.status > 299) return undefined;
    state.succeeded++;
    if (typeof res.body !== "string" || res.body === "") return {};
    return JSON.parse(res.body);
  };

  /** One request: a create most of the time, else a rename or a delete of one of its own rows. */
  const step = async (): Promise<void> => {
    const n = ++state.n;
    const roll = rng.int(0, 99);
    const pick = (list: string[]) => list[rng.int(0, list.length - 1)] as string;
    if (roll < 20 && products.length > 0) {
      await send("PATCH", `/products/${pick(products)}`, { name: `Team B item ${n} (renamed)` });
    } else if (roll < 35 && products.length > 2) {
      const id = pick(products);
      products.splice(products.indexOf(id), 1);
      await send("DELETE", `/products/${id}`);
    } else if (roll < 45 && customers.length > 1) {
      const id = pick(customers);
      customers.splice(customers.indexOf(id), 1);
      await send("DELETE", `/customers/${id}`);
    } else if (roll < 65) {
      const made = await send("POST", "/customers", { first_name: "Team B", last_name: `Customer ${n}` });
      const id = made?.data?.id;
      if (typeof id === "string") {
        touched.add(id);
        customers.push(id);
      }
    } else {
      const made = await send("POST", "/products", { name: `Team B item ${n}`, retail_price: 100 * n });
      const id = made?.data?.id;
      if (typeof id === "string") {
        touched.add(id);
        products.push(id);
      }
    }
  };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const tick = () => {
    inFlight = step()
      .catch(() => undefined)
      .then(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs);
      });
  };
  timer = setTimeout(tick, options.intervalMs);

  return {
    touched,
    get requests() {
      return state.requests;
    },
    get succeeded() {
      return state.succeeded;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
