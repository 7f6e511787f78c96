import type { Env } from "../kernel/env.js";
import type { Rng } from "../kernel/random.js";
import { normalizeScopes, type Scope } from "../contract/scopes.js";
import type { OAuthClientRecord, UserRecord } from "./auth/accounts.js";
import { CredentialRegistry, type Credential } from "./auth/credentials.js";
import { OAuthState } from "./auth/oauth-state.js";
import { ImageRegistry } from "./catalog/images.js";
import { FaultList } from "./faults.js";
import { ProcessBounds, type Caps } from "./caps.js";
import { IdempotencyStore } from "./idempotency.js";
import { RateLimiter } from "./limits.js";
import type { StoreState } from "./store.js";

export type { OAuthClientRecord, UserRecord } from "./auth/accounts.js";

export interface WorldOptions {
  readonly rateLimits?: boolean;
  /** The caps and the accounting shared by every world of the process (a world of its own when left out). */
  readonly bounds?: ProcessBounds;
}

/** The whole simulated service: every store, credential and limit. build-world.ts fills it from a seed and a fixture. */
export class World {
  readonly env: Env;
  /** Secrets (tokens, client secrets) draw from their own stream, so adding ids never shifts them. */
  readonly secrets: Rng;
  readonly stores = new Map<string, StoreState>();
  readonly credentials = new CredentialRegistry();
  /**
   * The plaintext of the API keys this simulator issued (fixture and control plane), by key id: what
   * `GET /_sim/credentials` lists. Kept apart from the registry; authentication never reads it.
   */
  readonly issuedKeys = new Map<string, string>();
  readonly users: UserRecord[] = [];
  readonly oauthClients: OAuthClientRecord[] = [];
  readonly idempotency: IdempotencyStore;
  readonly limits: RateLimiter;
  readonly faults = new FaultList();
  readonly images = new ImageRegistry();
  readonly oauth: OAuthState;
  /** The bounds of every store of state (engine/caps.ts), shared with the other worlds of the process. */
  readonly bounds: ProcessBounds;
  /** Replaced or removed (`discard`): work left for idle moments is no longer worth doing. */
  discarded = false;
  /** Where internal errors are reported (the CLI prints them to stderr); never given credentials. */
  log?: (line: string) => void;

  get caps(): Caps {
    return this.bounds.caps;
  }

  constructor(env: Env, secrets: Rng, options: WorldOptions = {}) {
    this.env = env;
    this.secrets = secrets;
    this.bounds = options.bounds ?? new ProcessBounds();
    this.idempotency = new IdempotencyStore(this.bounds);
    this.limits = new RateLimiter(options.rateLimits ?? true, this.bounds.rateLimitWindows);
    this.oauth = new OAuthState(this.caps, this.credentials);
  }

  /**
   * The world is replaced (a reset) or removed (a sandbox): what it holds against the process-wide caps
   * is given back. Requests still in flight in it finish, and it keeps nothing from them.
   */
  discard(): void {
    this.discarded = true;
    this.idempotency.discard();
    this.limits.release();
  }

  /**
   * Does at most `max` rows of the layout its build deferred (`StoreState.deferSales`); whether any is
   * left. Nothing read depends on it: reading a store's sales lays out the rest of them first.
   */
  layOut(max: number): boolean {
    for (const store of this.stores.values()) if (store.layOutSales(max)) return true;
    return false;
  }

  createKey(store: StoreState, name: string, scopes: readonly Scope[], token?: string): Credential {
    const plaintext = token ?? `rsk_${this.secrets.token(40)}`;
    const key = this.credentials.add(
      {
        id: this.env.ids.uuid(),
        kind: "api_key",
        name,
        storePrefix: store.prefix,
        scopes: normalizeScopes(scopes),
        createdAt: this.env.clock.now(),
        lastUsedAt: null,
        state: "active",
        expiresAt: null,
      },
      plaintext,
    );
    this.issuedKeys.set(key.id, plaintext);
    return key;
  }
}
