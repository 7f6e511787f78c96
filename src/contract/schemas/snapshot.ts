import { Type, type Static } from "@sinclair/typebox";
import { SCOPES } from "../scopes.js";
import { OneOf, OrNull, SnapId, SnapPrefix, SnapshotStore, SnapTime } from "./snapshot-stores.js";

// A snapshot (docs/interfaces.md, Snapshots): the whole state of one sandbox as `GET /_sim/snapshot`
// answers it, and a world `--fixture FILE`, `POST /_sim/reset {fixture}` and `POST /_sim/sandboxes
// {fixture}` start from. Unlike the authored fixture format (fixture.ts), it holds what the simulator
// made: ids, versions, tokens (API keys in plain, every other secret by its SHA-256), the clock, the
// state of the seeded streams, idempotency records and rate-limit windows. `format` and `version` mark it.

export const SNAPSHOT_FORMAT = "retail-sim/snapshot";
export const SNAPSHOT_VERSION = 1;

const Strict = { additionalProperties: false } as const;
const Word = Type.Integer({ minimum: 0, maximum: 4294967295 });
/** A seeded stream's state: sfc32's four unsigned 32-bit words. */
const StreamState = Type.Tuple([Word, Word, Word, Word]);
/** SHA-256 in hex: how every secret but an API key's token is kept. */
const Digest = Type.String({ pattern: "^[0-9a-f]{64}$" });
const Scopes = Type.Array(OneOf(SCOPES), { uniqueItems: true });
const CredentialState = OneOf(["active", "revoked", "expired"]);

const Credential = Type.Object(
  {
    id: SnapId,
    kind: OneOf(["api_key", "access_token"]),
    name: Type.String(),
    store_prefix: SnapPrefix,
    scopes: Scopes,
    created_at: SnapTime,
    last_used_at: OrNull(SnapTime),
    state: CredentialState,
    expires_at: OrNull(SnapTime),
    /** An access token's OAuth connection. */
    connection_id: OrNull(SnapId),
    digest: Digest,
    /** An API key's token, as `GET /_sim/credentials` lists it; null for an access token (kept by digest only). */
    token: OrNull(Type.String({ pattern: "^[\\x21-\\x7E]{1,512}$" })),
  },
  Strict,
);

const Optional = Type.Optional(Type.String());
const AuthorizeParams = Type.Object(
  {
    response_type: Optional,
    client_id: Optional,
    redirect_uri: Optional,
    scope: Optional,
    state: Optional,
    code_challenge: Optional,
    code_challenge_method: Optional,
  },
  Strict,
);

const OAuth = Type.Object(
  {
    clients: Type.Array(
      Type.Object(
        {
          client_id: Type.String({ minLength: 1 }),
          client_secret: Type.String({ minLength: 1 }),
          name: Type.String(),
          redirect_uris: Type.Array(Type.String()),
        },
        Strict,
      ),
    ),
    connections: Type.Array(
      Type.Object(
        {
          id: SnapId,
          client_id: Type.String(),
          user_id: SnapId,
          store_prefix: SnapPrefix,
          scopes: Scopes,
          name: Type.String(),
          created_at: SnapTime,
          last_used_at: OrNull(SnapTime),
          state: CredentialState,
          /** Its access tokens (credential ids), oldest first: a new one past the cap retires the oldest. */
          access_tokens: Type.Array(SnapId),
        },
        Strict,
      ),
    ),
    codes: Type.Array(
      Type.Object(
        {
          digest: Digest,
          client_id: Type.String(),
          user_id: SnapId,
          store_prefix: SnapPrefix,
          redirect_uri: Type.String(),
          scopes: Scopes,
          challenge: OrNull(Type.String()),
          expires_at: SnapTime,
          used: Type.Boolean(),
          connection_id: OrNull(SnapId),
        },
        Strict,
      ),
    ),
    refresh_tokens: Type.Array(Type.Object({ digest: Digest, connection_id: SnapId }, Strict)),
    sign_ins: Type.Array(
      Type.Object(
        { ticket: Type.String({ minLength: 1 }), user_id: SnapId, expires_at: SnapTime, params: AuthorizeParams },
        Strict,
      ),
    ),
  },
  Strict,
);

const Fault = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: 2 ** 31 }),
    method: OrNull(OneOf(["GET", "POST", "PUT", "PATCH", "DELETE"])),
    path: OrNull(Type.String({ minLength: 1, pattern: "^/" })),
    status: OrNull(Type.Integer({ minimum: 400, maximum: 599 })),
    code: OrNull(Type.String({ pattern: "^[A-Z_]+$" })),
    times: OrNull(Type.Integer({ minimum: 1 })),
    remaining: OrNull(Type.Integer({ minimum: 1 })),
    delay_ms: OrNull(Type.Integer({ minimum: 0, maximum: 600000 })),
    after_commit: Type.Boolean(),
    hold: Type.Boolean(),
  },
  Strict,
);

export const Snapshot = Type.Object(
  {
    format: Type.Literal(SNAPSHOT_FORMAT),
    version: Type.Literal(SNAPSHOT_VERSION),
    /** The sandbox it was taken from (`default`, `sb1`, ...): restored into another, its names are rewritten. */
    sandbox: Type.String({ pattern: "^(default|sb[1-9][0-9]{0,8})$" }),
    clock: Type.Object({ mode: OneOf(["system", "manual"]), now: SnapTime }, Strict),
    /** Where the seeded streams stand: ids issued after a restore continue the same sequences. */
    random: Type.Object({ ids: StreamState, secrets: StreamState }, Strict),
    stores: Type.Array(SnapshotStore, { minItems: 1 }),
    credentials: Type.Array(Credential),
    users: Type.Array(
      Type.Object(
        {
          id: SnapId,
          email: Type.String(),
          store_prefix: SnapPrefix,
          role: OneOf(["admin", "user"]),
          password: Type.String(),
        },
        Strict,
      ),
    ),
    oauth: OAuth,
    idempotency: Type.Array(
      Type.Object(
        {
          credential: SnapId,
          key: Type.String({ pattern: "^[\\x21-\\x7E]{1,255}$" }),
          fingerprint: Digest,
          status: Type.Integer({ minimum: 100, maximum: 499 }),
          body: OrNull(Type.String()),
          expires_at: SnapTime,
          subject: Type.Optional(Type.String({ pattern: "^customer:" })),
        },
        Strict,
      ),
    ),
    rate_limits: Type.Array(
      Type.Object(
        {
          policy: Type.String(),
          key: Type.String(),
          start: SnapTime,
          count: Type.Integer({ minimum: 0, maximum: 2 ** 31 }),
        },
        Strict,
      ),
    ),
    faults: Type.Object({ next_id: Type.Integer({ minimum: 1, maximum: 2 ** 31 }), list: Type.Array(Fault) }, Strict),
    images: Type.Object(
      {
        stored: Type.Array(SnapId),
        outcomes: Type.Array(Type.Tuple([Type.String(), OneOf(["ok", "fail", "busy"])])),
      },
      Strict,
    ),
  },
  Strict,
);
export type Snapshot = Static<typeof Snapshot>;

/** Whether a document says it is a snapshot (its `format`): then it is checked as one, never as a fixture. */
export const isSnapshotDocument = (doc: unknown): boolean =>
  typeof doc === "object" && doc !== null && !Array.isArray(doc) && "format" in doc;
