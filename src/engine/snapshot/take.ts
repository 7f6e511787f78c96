import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type Snapshot } from "../../contract/schemas/snapshot.js";
import type { World } from "../world.js";
import { saveStore } from "./stores.js";

// `GET /_sim/snapshot` (docs/interfaces.md, Snapshots): the whole state of one sandbox's world as a
// document restore.ts turns back into a world that answers every request with the same bytes.

/** The world's state now; `sandbox` is the id of the sandbox it belongs to. Records are shared, not copied. */
export function takeSnapshot(world: World, sandbox: string): Snapshot {
  const oauth = world.oauth.records();
  const faults = world.faults.records();
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    sandbox,
    clock: { mode: world.env.clock.mode, now: world.env.clock.now() },
    random: { ids: [...world.env.ids.state()], secrets: [...world.secrets.state()] },
    stores: [...world.stores.values()].map(saveStore),
    credentials: world.credentials.records().map(({ digest, credential: c }) => ({
      id: c.id,
      kind: c.kind,
      name: c.name,
      store_prefix: c.storePrefix,
      scopes: [...c.scopes],
      created_at: c.createdAt,
      last_used_at: c.lastUsedAt,
      state: c.state,
      expires_at: c.expiresAt,
      connection_id: c.connection?.id ?? null,
      digest,
      token: world.issuedKeys.get(c.id) ?? null,
    })),
    users: world.users.map((u) => ({
      id: u.id,
      email: u.email,
      store_prefix: u.storePrefix,
      role: u.role,
      password: u.password,
    })),
    oauth: {
      clients: world.oauthClients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        name: c.name,
        redirect_uris: [...c.redirectUris],
      })),
      connections: oauth.connections.map(({ connection: c, tokens }) => ({
        id: c.id,
        client_id: c.clientId,
        user_id: c.userId,
        store_prefix: c.storePrefix,
        scopes: [...c.scopes],
        name: c.name,
        created_at: c.createdAt,
        last_used_at: c.lastUsedAt,
        state: c.state,
        access_tokens: [...tokens],
      })),
      codes: oauth.codes.map(([digest, code]) => ({
        digest,
        client_id: code.clientId,
        user_id: code.userId,
        store_prefix: code.storePrefix,
        redirect_uri: code.redirectUri,
        scopes: [...code.scopes],
        challenge: code.challenge,
        expires_at: code.expiresAt,
        used: code.used,
        connection_id: code.connection?.id ?? null,
      })),
      refresh_tokens: oauth.connections.flatMap(({ refreshDigest, connection }) =>
        refreshDigest === null ? [] : [{ digest: refreshDigest, connection_id: connection.id }],
      ),
      sign_ins: oauth.tickets.map(([ticket, signIn]) => ({
        ticket,
        user_id: signIn.userId,
        expires_at: signIn.expiresAt,
        params: { ...signIn.params },
      })),
    },
    idempotency: world.idempotency.records().map((r) => ({
      credential: r.credentialId,
      key: r.key,
      fingerprint: r.fingerprint,
      status: r.response.status,
      body: r.response.body,
      expires_at: r.expiresAt,
      // Whose personal details the answer shows: an erasure after the restore still reaches it.
      ...(r.subject === undefined ? {} : { subject: r.subject }),
    })),
    rate_limits: world.limits.windows(),
    faults: {
      next_id: faults.nextId,
      list: faults.faults.map((f) => ({
        id: f.id,
        method: (f.method ?? null) as Snapshot["faults"]["list"][number]["method"],
        path: f.path ?? null,
        status: f.status ?? null,
        code: f.code ?? null,
        times: f.times ?? null,
        remaining: f.remaining,
        delay_ms: f.delay_ms ?? null,
        after_commit: f.after_commit ?? false,
        hold: f.hold ?? false,
      })),
    },
    images: world.images.records(),
  };
}
