import { sha256 } from "../../kernel/digest.js";
import { OrderedMap } from "../../kernel/ordered-map.js";
import type { Scope } from "../../contract/scopes.js";
import type { Caps } from "../caps.js";
import type { Credential, CredentialRegistry, Connection } from "./credentials.js";

// What the OAuth flow keeps between requests, each store of it bounded whatever the clock does
// (docs/interfaces.md, Caps; docs/spec-choices.md, OAuth): sign-in tickets and authorization codes
// end after their lifetime and are at most `oauthPending` each; a connection keeps its newest
// `accessTokensPerConnection` access tokens, and an app and user their newest `connectionsPerAppUser`
// connections.

/** rule oauth.code-expiry: a code is valid for 10 minutes. */
export const CODE_TTL_MS = 10 * 60_000;
/** A sign-in on the consent page lasts as long as a code (docs/spec-choices.md, OAuth). */
export const TICKET_TTL_MS = 10 * 60_000;

/**
 * Entries that each live the same fixed time, so the order they are added is the order they end:
 * the ended ones are dropped from the front (constant work per call, amortized), and at the cap the
 * oldest goes first.
 */
export class Expiring<T extends { readonly expiresAt: number }> {
  private readonly items = new OrderedMap<string, T>();

  constructor(readonly cap: number) {}

  get size(): number {
    return this.items.size;
  }

  add(key: string, item: T, now: number): void {
    this.expire(now);
    while (this.items.size >= this.cap) this.items.shift();
    this.items.set(key, item);
  }

  /** The entry, if it has not ended. */
  get(key: string, now: number): T | undefined {
    this.expire(now);
    return this.items.get(key);
  }

  delete(key: string): boolean {
    return this.items.delete(key);
  }

  /** Entries oldest first (what a snapshot keeps). */
  entries(): IterableIterator<[string, T]> {
    return this.items.entries();
  }

  expire(now: number): void {
    for (let item = this.items.oldest(); item !== undefined && now >= item.expiresAt; item = this.items.oldest())
      this.items.shift();
  }
}

export interface AuthCode {
  readonly clientId: string;
  readonly userId: string;
  readonly storePrefix: string;
  readonly redirectUri: string;
  readonly scopes: readonly Scope[];
  readonly challenge: string | null;
  readonly expiresAt: number;
  used: boolean;
  /** The connection the code was exchanged for: a second use disconnects it (RFC 6749 4.1.2). */
  connection?: Connection;
}

/** A merchant signed in on the consent screen, between sign-in and decision. */
export interface Ticket {
  readonly userId: string;
  readonly expiresAt: number;
  /** The authorization request shown on the consent page: the decision applies to it. */
  readonly params: Readonly<Record<string, string | undefined>>;
}

export interface Held {
  readonly connection: Connection;
  /** Null for a connection restored into another sandbox: its refresh token stayed behind. */
  readonly refreshDigest: string | null;
  /** Its access tokens' credential ids, oldest first (some may have ended since). */
  readonly tokens: string[];
}

/** The OAuth state as a snapshot keeps it (`OAuthState.records`). */
export interface OAuthRecords {
  readonly connections: readonly Held[];
  readonly codes: readonly (readonly [string, AuthCode])[];
  readonly tickets: readonly (readonly [string, Ticket])[];
}

type OAuthCaps = Pick<Caps, "oauthPending" | "accessTokensPerConnection" | "connectionsPerAppUser">;

export class OAuthState {
  /** Authorization codes by their digest (the code itself is shown once, in the redirect). */
  readonly codes: Expiring<AuthCode>;
  /** Signed-in merchants on the consent screen, by ticket. */
  readonly tickets: Expiring<Ticket>;
  readonly connections = new Map<string, Connection>();
  /** Connections by the digest of their refresh token. */
  readonly refresh = new Map<string, Connection>();
  /** By connection id: what the connection holds. */
  private readonly held = new Map<string, Held>();
  /** Connection ids by app and user, oldest first. */
  private readonly byAppUser = new Map<string, string[]>();

  constructor(
    private readonly caps: OAuthCaps,
    private readonly credentials: CredentialRegistry,
  ) {
    this.codes = new Expiring(caps.oauthPending);
    this.tickets = new Expiring(caps.oauthPending);
  }

  /** A new connection and its refresh token; past the cap of its app and user, their oldest is forgotten. */
  connect(connection: Connection, refreshToken: string): void {
    const key = `${connection.clientId}\u0000${connection.userId}`;
    let ids = this.byAppUser.get(key);
    if (!ids) this.byAppUser.set(key, (ids = []));
    while (ids.length >= this.caps.connectionsPerAppUser) this.forget(ids.shift() as string);
    ids.push(connection.id);
    const refreshDigest = sha256(refreshToken);
    this.connections.set(connection.id, connection);
    this.refresh.set(refreshDigest, connection);
    this.held.set(connection.id, { connection, refreshDigest, tokens: [] });
  }

  /** A new access token of a connection; past the cap, the connection's oldest token stops working. */
  addToken(connection: Connection, credential: Credential, token: string, now: number): void {
    this.credentials.expire(now);
    const held = this.held.get(connection.id);
    if (held) {
      const live = held.tokens.filter((id) => this.credentials.get(id) !== undefined);
      while (live.length >= this.caps.accessTokensPerConnection) this.credentials.remove(live.shift() as string);
      held.tokens.splice(0, held.tokens.length, ...live, credential.id);
    }
    this.credentials.add(credential, token);
  }

  /**
   * What a snapshot keeps: connections oldest first, each with its refresh token's digest and its access
   * tokens' credential ids; codes and sign-ins oldest first.
   */
  records(): OAuthRecords {
    return {
      connections: [...this.held.values()].map((h) => ({ ...h, tokens: [...h.tokens] })),
      codes: [...this.codes.entries()],
      tickets: [...this.tickets.entries()],
    };
  }

  /** Takes back, into an empty state, what `records` gave; codes and sign-ins that ended by `now` are left out. */
  restore(records: OAuthRecords, now: number): void {
    for (const { connection, refreshDigest, tokens } of records.connections) {
      const key = `${connection.clientId}\u0000${connection.userId}`;
      let ids = this.byAppUser.get(key);
      if (!ids) this.byAppUser.set(key, (ids = []));
      ids.push(connection.id);
      this.connections.set(connection.id, connection);
      if (refreshDigest !== null) this.refresh.set(refreshDigest, connection);
      this.held.set(connection.id, { connection, refreshDigest, tokens: [...tokens] });
    }
    for (const [digest, code] of records.codes) this.codes.add(digest, code, now);
    for (const [ticket, signIn] of records.tickets) this.tickets.add(ticket, signIn, now);
  }

  /** A connection pushed out by newer ones of its app and user: disconnected, its tokens gone. */
  private forget(id: string): void {
    const held = this.held.get(id);
    if (!held) return;
    held.connection.state = "revoked";
    for (const token of held.tokens) this.credentials.remove(token);
    this.held.delete(id);
    this.connections.delete(id);
    if (held.refreshDigest !== null) this.refresh.delete(held.refreshDigest);
  }
}
