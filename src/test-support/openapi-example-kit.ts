// What an example request of the OpenAPI documents is made of (docs/sdk-authors.md, Examples), and the helpers the
// recipes of openapi-example-catalog.ts and openapi-example-people.ts share.

/** One request, by the parts the OpenAPI document gives examples for. */
export interface ExampleRequest {
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  /** `Idempotency-Key` only. */
  readonly header?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export interface ErrorRecipe extends ExampleRequest {
  /** The error code (`error` of the token endpoint's OAuth shape). */
  readonly code: string;
  readonly status: number;
  readonly summary: string;
  /** The demo store's key to send; null sends none (default `full`). */
  readonly key?: string | null;
  /** Another store of the fixture (default `demo`). */
  readonly prefix?: string;
}

export interface Recipe {
  readonly name: string;
  readonly summary: string;
  readonly request: ExampleRequest;
  readonly error: ErrorRecipe;
}

/** What a recipe reads from a fresh demo store. */
export interface Lookup {
  /** The row of a list (its first 200 rows) whose `field` is `value`. */
  find(path: string, field: string, value: string): Promise<Record<string, any>>;
  /** The `next_cursor` of the first page of a list. */
  nextCursor(path: string, query: Readonly<Record<string, string | number | boolean>>): Promise<string>;
  /** The authorization code a fresh demo simulator's first consent issues (openapi-examples.ts, `prepareExample`). */
  code(): string;
  /** The fixture's OAuth client, with the redirect URI of that consent. */
  client(): { client_id: string; client_secret: string; redirect_uri: string };
}

/** An id no row of the demo store has. */
export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
export const notFound = (what: string, body?: unknown): ErrorRecipe => ({
  code: "NOT_FOUND",
  status: 404,
  summary: `No ${what} has this id`,
  path: { id: UNKNOWN_ID },
  ...(body === undefined ? {} : { body }),
});
export const id = async (demo: Lookup, path: string, field: string, value: string): Promise<string> =>
  (await demo.find(path, field, value)).id as string;

/**
 * A list request with every list parameter: `limit`, `order`, `include_deleted` where the list takes it, and the
 * cursor the first page gives, so that the example is the second page.
 */
export async function secondPage(
  demo: Lookup,
  path: string,
  limit: 1 | 2,
  error: ErrorRecipe,
  extra: Readonly<Record<string, string | number | boolean>> = { include_deleted: true },
): Promise<Recipe> {
  const first = { limit, order: "asc", ...extra };
  return {
    name: "secondPage",
    summary: `The second page of ${path.slice(1).replace(/-/g, " ")}, ${limit === 1 ? "one" : "two"} a page`,
    request: { query: { ...first, cursor: await demo.nextCursor(path, first) } },
    error,
  };
}

/** A list query the service refuses with `400 VALIDATION_FAILED`. */
export const badQuery = (summary: string, query: Readonly<Record<string, string | number | boolean>>): ErrorRecipe => ({
  code: "VALIDATION_FAILED",
  status: 400,
  summary,
  query,
});

export const badLimit = (path: string): ErrorRecipe => badQuery(`${path}?limit=500: limit is 1 to 200`, { limit: 500 });
