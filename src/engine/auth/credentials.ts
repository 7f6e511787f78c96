import { sha256 } from "../../kernel/digest.js";
import { OrderedMap } from "../../kernel/ordered-map.js";
import type { Scope } from "../../contract/scopes.js";

/** Spec, States: a credential idle for 90 days expires; a never-used key counts from its creation. */
export const IDLE_LIMIT_MS = 90 * 24 * 60 * 60 * 1000;

export type CredentialState = "active" | "revoked" | "expired";

export interface Credential {
  readonly id: string;
  readonly kind: "api_key" | "access_token";
  readonly name: string;
  readonly storePrefix: string;
  readonly scopes: readonly Scope[];
  readonly createdAt: number;
  lastUsedAt: number | null;
  state: CredentialState;
  /** Access tokens end at a fixed time (spec: 3600 seconds); keys have none. */
  readonly expiresAt: number | null;
  /** The OAuth connection an access token belongs to: revoking or idling it stops every token. */
  readonly connection?: Connection;
}

/** An app's OAuth connection to a store (spec, States: a credential that is disconnected or idles out). */
export interface Connection {
  readonly id: string;
  readonly clientId: string;
  readonly userId: string;
  readonly storePrefix: string;
  readonly scopes: readonly Scope[];
  /** The app's name, shown as the key name in `GET /me`. */
  readonly name: string;
  readonly createdAt: number;
  lastUsedAt: number | null;
  state: CredentialState;
}

/** Limits, idempotency records and the identity belong to the key, or to the connection of a token. */
export const principalOf = (c: Credential): { readonly id: string; readonly name: string } => c.connection ?? c;

/** Lapsed access tokens remembered per world, to tell them from unknown ones. */
const LAPSED_KEPT = 10_000;

/** Why a credential was refused: `expired` is a credential idle over 90 days, `lapsed` an access token past its hour. */

export type AuthFailure = "missing" | "malformed" | "unknown" | "revoked" | "expired" | "lapsed";

/** RFC 6750 2.1: the scheme is case-insensitive and one or more spaces separate it from the token. */
const BEARER = /^bearer +([\x21-\x7E]{1,512})$/i;

/**
 * What a request's Authorization header presents: nothing, something malformed, or a bearer token;
 * never the plaintext, only its SHA-256 (for the lookup and for the failed-authentication windows).
 */
export type Presented =
  | { readonly kind: "missing" }
  | { readonly kind: "malformed" | "bearer"; readonly digest: string };

export function presented(header: string | undefined): Presented {
  if (header === undefined || header === "") return { kind: "missing" };
  const match = BEARER.exec(header);
  return match ? { kind: "bearer", digest: sha256(match[1] as string) } : { kind: "malformed", digest: sha256(header) };
}

/**
 * Spec, Limits: failed authentication counts "per address and credential". The credential is the
 * token however the header spells the scheme and spaces, so respelling it earns no fresh attempts.
 */
export const failedPairKey = (address: string, p: Presented): string =>
  `${address}\u0000${p.kind === "missing" ? "" : `${p.kind}:${p.digest}`}`;

/**
 * Every credential of a simulator, found by the digest of its token. The registry never holds a
 * token's plaintext: a lookup is a hash of a digest, so no comparison depends on the secret's bytes.
 * A credential with an end (an access token) is forgotten once it has ended: every one lasts as long,
 * so they are kept in the order they end and dropped from the front, in constant work per request.
 */
export class CredentialRegistry {
  private readonly byDigest = new Map<string, Credential>();
  private readonly byId = new Map<string, Credential>();
  /** The digests of credentials that end, by id, in the order they end. */
  private readonly ending = new OrderedMap<string, string>();
  /**
   * Digests of the newest access tokens forgotten at the end of their hour (at most LAPSED_KEPT), so that
   * using one is refused as expired rather than unknown.
   */
  private readonly lapsed = new OrderedMap<string, true>();

  add(credential: Credential, token: string): Credential {
    const digest = sha256(token);
    this.byDigest.set(digest, credential);
    this.byId.set(credential.id, credential);
    if (credential.expiresAt !== null) this.ending.set(credential.id, digest);
    return credential;
  }

  /** Forgets a credential (an access token pushed out by newer ones of its connection). */
  remove(id: string): void {
    const digest = this.ending.get(id);
    if (digest === undefined) return;
    this.ending.delete(id);
    this.byDigest.delete(digest);
    this.byId.delete(id);
  }

  /** Forgets the credentials that have ended by `now`. */
  expire(now: number): void {
    for (let id = this.ending.oldestKey(); id !== undefined; id = this.ending.oldestKey()) {
      if (now < (this.byId.get(id)?.expiresAt ?? 0)) return;
      const digest = this.ending.get(id) as string;
      this.remove(id);
      this.lapsed.set(digest, true);
      if (this.lapsed.size > LAPSED_KEPT) this.lapsed.shift();
    }
  }

  /** Credentials that end (access tokens) held now. */
  get endingCount(): number {
    return this.ending.size;
  }

  get(id: string): Credential | undefined {
    return this.byId.get(id.toLowerCase());
  }

  /** Snapshot: every credential with the digest it is found by, in the order they were added. */
  records(): { digest: string; credential: Credential }[] {
    const digests = new Map([...this.byDigest].map(([digest, credential]) => [credential, digest]));
    return [...this.byId.values()].map((credential) => ({ digest: digests.get(credential) as string, credential }));
  }

  /** Snapshot restore: a credential found by a digest (the plaintext of an access token is never kept). */
  restore(digest: string, credential: Credential): void {
    this.byDigest.set(digest, credential);
    this.byId.set(credential.id, credential);
    // Taken back in the order they were added, which for access tokens is the order they end.
    if (credential.expiresAt !== null) this.ending.set(credential.id, digest);
  }

  forStore(prefix: string): Credential[] {
    return [...this.byId.values()].filter((c) => c.storePrefix === prefix);
  }

  /**
   * Spec, Authentication 1 and States: `Authorization: Bearer <token>`; missing, malformed, unknown,
   * revoked or idle-over-90-days credentials fail. A success counts as use of the credential.
   */
  authenticate(given: Presented, now: number): { ok: true; credential: Credential } | { ok: false; why: AuthFailure } {
    this.expire(now);
    // rule auth.missing-credential: no credential sent fails (given.kind "missing").
    // rule auth.malformed-or-unknown: a malformed header fails here, a token no credential has just below.
    if (given.kind !== "bearer") return { ok: false, why: given.kind };
    const credential = this.byDigest.get(given.digest);
    if (!credential) return { ok: false, why: this.lapsed.has(given.digest) ? "lapsed" : "unknown" };
    // The key itself, or the connection behind an access token, carries the lifecycle state.
    const holder: { state: CredentialState; lastUsedAt: number | null; readonly createdAt: number } =
      credential.connection ?? credential;
    // rule auth.revoked-key: a revoked key (or connection) fails at once
    if (holder.state === "revoked" || credential.state === "revoked") return { ok: false, why: "revoked" };
    // rule auth.idle-expiry: a credential idle over 90 days expires
    if (holder.state === "active" && isIdle(holder, now)) holder.state = "expired";
    if (holder.state === "expired") return { ok: false, why: "expired" };
    // rule oauth.token-expiry: an access token lasts 1 hour
    if (credential.expiresAt !== null && now >= credential.expiresAt) return { ok: false, why: "lapsed" };
    holder.lastUsedAt = now;
    credential.lastUsedAt = now;
    return { ok: true, credential };
  }
}

function isIdle(holder: { lastUsedAt: number | null; readonly createdAt: number }, now: number): boolean {
  return now - (holder.lastUsedAt ?? holder.createdAt) > IDLE_LIMIT_MS;
}

/** The state as it stands at `now`: an active credential idle over 90 days is expired even before its next use. */
export function stateAt(
  holder: { state: CredentialState; lastUsedAt: number | null; readonly createdAt: number },
  now: number,
): CredentialState {
  return holder.state === "active" && isIdle(holder, now) ? "expired" : holder.state;
}

export const AUTH_FAILURE_MESSAGE: Record<AuthFailure, string> = {
  missing: "No credential was sent. Send Authorization: Bearer <API key or access token>.",
  malformed: "The Authorization header is malformed. Send Authorization: Bearer <API key or access token>.",
  unknown: "The credential is not known.",
  revoked: "The credential has been revoked.",
  expired: "The credential has expired.",
  lapsed: "The credential has expired.",
};

/** The rule branch of each refusal (contract/coverage-branches.ts). */
export const AUTH_FAILURE_BRANCH: Record<AuthFailure, string> = {
  missing: "auth.missing-credential",
  malformed: "auth.malformed-or-unknown",
  unknown: "auth.malformed-or-unknown",
  revoked: "auth.revoked-key",
  expired: "auth.idle-expiry",
  lapsed: "oauth.token-expiry",
};
