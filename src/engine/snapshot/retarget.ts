import { sha256 } from "../../kernel/digest.js";
import { createRng } from "../../kernel/random.js";
import type { Snapshot } from "../../contract/schemas/snapshot.js";

// A snapshot restored into a sandbox other than the one it was taken from (docs/interfaces.md,
// Snapshots): its data is kept, ids and versions included, but nothing that would let the credentials
// of one sandbox work in another. Store prefixes take the target's suffix; API keys and OAuth clients
// get new tokens, ids and secrets from a secrets stream of the target's own; issued access and refresh
// tokens, authorization codes and sign-ins are dropped (their holders hold the other sandbox's
// secrets); so are idempotency records (they answer requests sent to the other sandbox's paths) and
// rate-limit windows (they counted the other sandbox's traffic).

export const DEFAULT_SANDBOX_ID = "default";

export function retarget(doc: Snapshot, target: string): Snapshot {
  if (doc.sandbox === target) return doc;
  const from = doc.sandbox === DEFAULT_SANDBOX_ID ? "" : `-${doc.sandbox}`;
  const to = target === DEFAULT_SANDBOX_ID ? "" : `-${target}`;
  const rename = (prefix: string) =>
    (from !== "" && prefix.endsWith(from) ? prefix.slice(0, -from.length) : prefix) + to;
  const renamed = new Map(doc.stores.map((s) => [s.settings.prefix, rename(s.settings.prefix)]));
  // The target's own stream, derived from where the snapshot's stream stood: the same snapshot
  // restored into the same sandbox gets the same keys, and another sandbox other keys.
  const [a, b, c, d] = doc.random.secrets;
  const secrets = createRng((a ^ Math.imul(b, 31) ^ Math.imul(c, 961) ^ Math.imul(d, 29791)) >>> 0, streamOf(target));
  const credentials = doc.credentials
    .filter((k) => k.kind === "api_key")
    .map((k) => {
      const token = `rsk_${secrets.token(40)}`;
      return { ...k, store_prefix: rename(k.store_prefix), token, digest: sha256(token) };
    });
  const clientIds = new Map<string, string>();
  const clients = doc.oauth.clients.map((client) => {
    const next = { ...client, client_id: `rsc_${secrets.token(24)}`, client_secret: `rss_${secrets.token(40)}` };
    clientIds.set(client.client_id, next.client_id);
    return next;
  });
  return {
    ...doc,
    sandbox: target,
    random: { ids: doc.random.ids, secrets: [...secrets.state()] },
    stores: doc.stores.map((store) => ({
      ...store,
      settings: { ...store.settings, prefix: rename(store.settings.prefix) },
    })),
    credentials,
    users: doc.users.map((u) => ({ ...u, store_prefix: rename(u.store_prefix) })),
    oauth: {
      clients,
      connections: doc.oauth.connections.map((c) => ({
        ...c,
        client_id: clientIds.get(c.client_id) ?? c.client_id,
        store_prefix: rename(c.store_prefix),
        access_tokens: [],
      })),
      codes: [],
      refresh_tokens: [],
      sign_ins: [],
    },
    idempotency: [],
    rate_limits: [],
    faults: {
      next_id: doc.faults.next_id,
      list: doc.faults.list.map((f) => ({ ...f, path: f.path === null ? null : renamePath(f.path, renamed) })),
    },
  };
}

/** The secrets stream a sandbox's world draws from (build-world.ts and the sandboxes use the same names). */
export const streamOf = (sandbox: string): string =>
  sandbox === DEFAULT_SANDBOX_ID ? "secrets" : `secrets/${sandbox}`;

/** A fault's path names a store by its first segment (`/demo-sb1/v1/products`): the renamed store's. */
function renamePath(path: string, renamed: ReadonlyMap<string, string>): string {
  const match = /^\/([^/*]+)(?=\/|$)/.exec(path);
  if (match === null) return path;
  const next = renamed.get(match[1] as string);
  return next === undefined ? path : `/${next}${path.slice(match[0].length)}`;
}
