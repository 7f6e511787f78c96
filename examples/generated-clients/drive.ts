// What both drivers share: the input they are given (argv[2], JSON), the report they print (stdout, JSON), and
// the tool-independent steps (paging, reading the answers into the report). This file makes no request: each
// driver calls the API through its generated client only.

export interface Input {
  /** A key of the store the main document's server names (`Authorization: Bearer`). */
  key: string;
  /** An authorization code for the OAuth client below, from the consent page or its headless twin. */
  code: string;
  redirectUri: string;
  clientId: string;
  clientSecret: string;
  /** The SKU of the product the driver creates, and the Idempotency-Key of that create. */
  sku: string;
  idempotencyKey: string;
}

export interface Report {
  products: { status: number; skus: (string | null)[]; hasMore: boolean };
  created: { status: number; id: string; sku: string | null; version: string; replayed: string | null };
  replay: { status: number; id: string; replayed: string | null };
  updated: { status: number; version: string; retailPrice: number };
  stale: { status: number; code: string; message: string };
  stock: { status: number; changed: boolean; onHand: number; delta: number; levels: [string, number][] };
  sales: { pageSizes: number[]; ids: string[]; lastHasMore: boolean };
  customers: { status: number; emails: (string | null)[] };
  token: { status: number; tokenType: string; expiresIn: number; scope: string; apiBaseUrl: string };
  codeAgain: { status: number; error: string };
  me: { status: number; domainPrefix: string; scopes: string[] };
  /** docs/spec-choices.md: a code used twice disconnects the connection its first use made (RFC 6749, 4.1.2). */
  revoked: { status: number; code: string };
}

/** A call that succeeded, as the drivers keep it. */
export interface Answer<T> {
  status: number;
  headers: Headers;
  data: T;
}

/** A call that failed: its status and error body. */
export interface Refusal<E> {
  status: number;
  error: E;
}

type Envelope = { error: { code: string; message: string } };

/** The answers a driver collected, typed by the generated client and read here into the report. */
export interface Walk {
  listed: Answer<{ has_more: boolean }>;
  first: readonly { sku?: string | null }[];
  created: Answer<{ data: { id: string; sku?: string | null; version: string } }>;
  replay: Answer<{ data: { id: string } }>;
  updated: Answer<{ data: { version: string; retail_price: number } }>;
  stale: Refusal<Envelope>;
  stock: Answer<{ data: { changed: boolean; on_hand: number; delta: number } }>;
  levels: readonly { outlet_id: string; on_hand: number }[];
  sales: Pages<{ id: string }>;
  customers: Answer<unknown>;
  people: readonly { email: string | null }[];
  token: Answer<{ token_type: string; expires_in: number; scope: string; api_base_url: string }>;
  codeAgain: Refusal<{ error: string }>;
  me: Answer<{ data: { domain_prefix: string; scopes: readonly string[] } }>;
  revoked: Refusal<Envelope>;
}

export function report(walk: Walk): Report {
  const replayed = (answer: Answer<unknown>) => answer.headers.get("Idempotent-Replayed");
  const { created, updated, stock, token, me } = walk;
  return {
    products: {
      status: walk.listed.status,
      skus: walk.first.map((p) => p.sku ?? null),
      hasMore: walk.listed.data.has_more,
    },
    created: {
      status: created.status,
      id: created.data.data.id,
      sku: created.data.data.sku ?? null,
      version: created.data.data.version,
      replayed: replayed(created),
    },
    replay: { status: walk.replay.status, id: walk.replay.data.data.id, replayed: replayed(walk.replay) },
    updated: {
      status: updated.status,
      version: updated.data.data.version,
      retailPrice: updated.data.data.retail_price,
    },
    stale: { status: walk.stale.status, code: walk.stale.error.error.code, message: walk.stale.error.error.message },
    stock: {
      status: stock.status,
      changed: stock.data.data.changed,
      onHand: stock.data.data.on_hand,
      delta: stock.data.data.delta,
      levels: walk.levels.map((l): [string, number] => [l.outlet_id, l.on_hand]),
    },
    sales: { pageSizes: walk.sales.pageSizes, ids: walk.sales.rows.map((s) => s.id), lastHasMore: walk.sales.hasMore },
    customers: { status: walk.customers.status, emails: walk.people.map((c) => c.email) },
    token: {
      status: token.status,
      tokenType: token.data.token_type,
      expiresIn: token.data.expires_in,
      scope: token.data.scope,
      apiBaseUrl: token.data.api_base_url,
    },
    codeAgain: { status: walk.codeAgain.status, error: walk.codeAgain.error.error },
    me: { status: me.status, domainPrefix: me.data.data.domain_prefix, scopes: [...me.data.data.scopes] },
    revoked: { status: walk.revoked.status, code: walk.revoked.error.error.code },
  };
}

export interface Pages<T> {
  rows: T[];
  pageSizes: number[];
  /** has_more of the last page: false once the loop ends. */
  hasMore: boolean;
}

/** Every page of a list, following next_cursor until has_more is false. */
export async function allPages<T>(
  page: (cursor: string | undefined) => Promise<{ data: T[]; has_more: boolean; next_cursor: string | null }>,
): Promise<Pages<T>> {
  const pages: Pages<T> = { rows: [], pageSizes: [], hasMore: true };
  let cursor: string | undefined;
  while (pages.hasMore) {
    const answer = await page(cursor);
    pages.rows.push(...answer.data);
    pages.pageSizes.push(answer.data.length);
    pages.hasMore = answer.has_more;
    cursor = answer.next_cursor ?? undefined;
  }
  return pages;
}

/** The input, checked field by field: every field a string. */
export function readInput(argument = process.argv[2]): Input {
  const raw: unknown = JSON.parse(argument ?? "null");
  if (typeof raw !== "object" || raw === null) throw new Error("argv[2]: a JSON object is expected");
  const given = new Map(Object.entries(raw));
  const value = (name: keyof Input): string => {
    const field = given.get(name);
    if (typeof field !== "string") throw new Error(`argv[2]: "${name}" must be a string`);
    return field;
  };
  return {
    key: value("key"),
    code: value("code"),
    redirectUri: value("redirectUri"),
    clientId: value("clientId"),
    clientSecret: value("clientSecret"),
    sku: value("sku"),
    idempotencyKey: value("idempotencyKey"),
  };
}

/** Stops the driver: a call answered what the script did not expect. */
export function unexpected(what: string, status: number, body: unknown): never {
  throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`);
}

/** Runs a driver and prints its report as one line of JSON; a failure exits 1 with the reason on stderr. */
export function main(drive: (input: Input) => Promise<Report>): void {
  drive(readInput()).then(
    (done) => process.stdout.write(`${JSON.stringify(done)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
