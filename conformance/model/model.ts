import type { Snapshot } from "../../src/contract/schemas/snapshot.js";
import type { CoverageReport } from "../../src/contract/journal.js";
import type { SimRequest } from "../../src/http/types.js";
import { createSimulator, type Simulator } from "../../src/simulator.js";

// The model: an in-process simulator that starts from the target's state and is sent the same requests,
// on a manual clock that follows the target's. Its answers are the prediction the target is compared with.

export const MODEL_ROOT = "http://model.invalid";

export interface ModelAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  readonly json: any;
}

export interface ModelRequest {
  readonly method: string;
  /** Path under the model's API root, percent-encoded (`/demo/v1/products`). */
  readonly path: string;
  readonly query: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

const parse = (text: string): unknown => {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};

export class Model {
  private constructor(readonly sim: Simulator) {}

  /** A model holding exactly the state of this snapshot (the target's, or one the suite made from what the API shows). */
  static from(snapshot: Snapshot, options: { rateLimits: boolean }): Model {
    return new Model(createSimulator({ fixture: forModel(snapshot), clock: "manual", rateLimits: options.rateLimits }));
  }

  /** Starts again from this snapshot; the coverage so far is kept. */
  restore(snapshot: Snapshot): void {
    this.sim.reset({ fixture: forModel(snapshot) });
  }

  snapshot(): Snapshot {
    return this.sim.snapshot();
  }

  /** A throwaway copy, for questions that must not change the model (what else a request could have answered). */
  fork(): Model {
    return new Model(
      createSimulator({ fixture: forModel(this.snapshot()), clock: "manual", journal: false, rateLimits: false }),
    );
  }

  get now(): number {
    return Date.parse(this.sim.clock.now());
  }

  /** Moves the clock to `at` (epoch ms) if it is later; the clock never goes back. */
  catchUp(at: number): void {
    if (Number.isFinite(at) && at > this.now) this.sim.clock.set(new Date(at).toISOString());
  }

  async send(req: ModelRequest): Promise<ModelAnswer> {
    const sim: SimRequest = {
      method: req.method,
      path: req.path,
      query: req.query,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v])),
      body: req.body === undefined ? null : new TextEncoder().encode(req.body),
      remoteAddress: "127.0.0.1",
      origin: MODEL_ROOT,
    };
    const res = await this.sim.handle(sim);
    const text = res.body === null ? "" : typeof res.body === "string" ? res.body : new TextDecoder().decode(res.body);
    return { status: res.status, headers: res.headers, text, json: parse(text) };
  }

  /** The rule branches the model's newest answer took (contract/coverage-branches.ts). */
  lastBranches(): readonly string[] {
    return this.sim.journal({ limit: 1 }).data[0]?.branches ?? [];
  }

  coverage(): CoverageReport {
    return this.sim.coverage();
  }
}

/** A snapshot restored as the model's own: in the default sandbox as it is, on a manual clock. */
function forModel(snapshot: Snapshot): Snapshot {
  return { ...snapshot, sandbox: "default", clock: { mode: "manual", now: snapshot.clock.now } };
}
