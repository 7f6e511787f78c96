import type { Env } from "../../kernel/env.js";
import { rngFromState } from "../../kernel/random.js";
import type { Snapshot } from "../../contract/schemas/snapshot.js";
import type { Connection, Credential } from "../auth/credentials.js";
import type { AuthCode } from "../auth/oauth-state.js";
import type { Fault } from "../faults.js";
import { World, type WorldOptions } from "../world.js";
import { restoreStore } from "./stores.js";

// A world from a snapshot (take.ts made it; check.ts and the schema checked it): the same stores, rows,
// versions, keys, OAuth state, idempotency records, rate-limit windows, faults and images, and the
// seeded streams where they stood, so it answers what the world it was taken from would have answered.
// Every mutable object is made anew (resetting to the same document twice gives two independent
// worlds); immutable records are shared with the document. The clock is the caller's: it starts at
// the snapshot's `clock.now` (docs/interfaces.md, Snapshots).

export function restoreWorld(doc: Snapshot, time: Pick<Env, "clock" | "sleep">, options: WorldOptions = {}): World {
  const world = new World(
    { clock: time.clock, sleep: time.sleep, ids: rngFromState(doc.random.ids) },
    rngFromState(doc.random.secrets),
    options,
  );
  for (const saved of doc.stores) world.stores.set(saved.settings.prefix, restoreStore(saved));
  const connections = new Map<string, Connection>();
  for (const c of doc.oauth.connections) {
    connections.set(c.id, {
      id: c.id,
      clientId: c.client_id,
      userId: c.user_id,
      storePrefix: c.store_prefix,
      scopes: c.scopes,
      name: c.name,
      createdAt: c.created_at,
      lastUsedAt: c.last_used_at,
      state: c.state,
    });
  }
  const connectionOf = (id: string | null) => (id === null ? undefined : (connections.get(id) as Connection));
  for (const k of doc.credentials) {
    const credential: Credential = {
      id: k.id,
      kind: k.kind,
      name: k.name,
      storePrefix: k.store_prefix,
      scopes: k.scopes,
      createdAt: k.created_at,
      lastUsedAt: k.last_used_at,
      state: k.state,
      expiresAt: k.expires_at,
      ...(k.connection_id === null ? {} : { connection: connectionOf(k.connection_id) }),
    };
    world.credentials.restore(k.digest, credential);
    if (k.token !== null) world.issuedKeys.set(k.id, k.token);
  }
  for (const u of doc.users)
    world.users.push({ id: u.id, email: u.email, storePrefix: u.store_prefix, role: u.role, password: u.password });
  for (const c of doc.oauth.clients) {
    world.oauthClients.push({
      clientId: c.client_id,
      clientSecret: c.client_secret,
      name: c.name,
      redirectUris: [...c.redirect_uris],
    });
  }
  const refreshOf = new Map(doc.oauth.refresh_tokens.map((r) => [r.connection_id, r.digest]));
  world.oauth.restore(
    {
      connections: doc.oauth.connections.map((c) => ({
        connection: connectionOf(c.id) as Connection,
        refreshDigest: refreshOf.get(c.id) ?? null,
        tokens: c.access_tokens,
      })),
      codes: doc.oauth.codes.map((c): [string, AuthCode] => [
        c.digest,
        {
          clientId: c.client_id,
          userId: c.user_id,
          storePrefix: c.store_prefix,
          redirectUri: c.redirect_uri,
          scopes: c.scopes,
          challenge: c.challenge,
          expiresAt: c.expires_at,
          used: c.used,
          ...(c.connection_id === null ? {} : { connection: connectionOf(c.connection_id) }),
        },
      ]),
      tickets: doc.oauth.sign_ins.map((t) => [
        t.ticket,
        { userId: t.user_id, expiresAt: t.expires_at, params: t.params },
      ]),
    },
    world.env.clock.now(),
  );
  world.idempotency.restore(
    doc.idempotency.map((r) => ({
      credentialId: r.credential,
      key: r.key,
      fingerprint: r.fingerprint,
      response: { status: r.status, body: r.body },
      expiresAt: r.expires_at,
      ...(r.subject === undefined ? {} : { subject: r.subject }),
    })),
    world.env.clock.now(),
  );
  world.limits.restore(doc.rate_limits);
  world.faults.restore({
    nextId: doc.faults.next_id,
    // A fault holds only what it was given, as when the control plane made it.
    faults: doc.faults.list.map(
      ({ after_commit, hold, ...f }) =>
        ({
          ...Object.fromEntries(Object.entries(f).filter(([, value]) => value !== null)),
          remaining: f.remaining,
          ...(after_commit ? { after_commit } : {}),
          ...(hold ? { hold } : {}),
        }) as Omit<Fault, "held">,
    ),
  });
  world.images.restore(doc.images);
  return world;
}
