// The generator of src/contract/openapi-examples.json (docs/sdk-authors.md, Examples): each operation's example
// request (openapi-example-requests.ts, drawn from the demo fixture) runs against a fresh demo simulator in
// process, and the file records the request with the simulator's real answer. `npm run openapi:examples` writes
// it; src/contract/openapi-examples.test.ts requires the committed file to equal a fresh generation.
import type { ErrorExample, OpenApiExamples, OperationExample } from "../contract/openapi-examples.js";
import { OPERATIONS } from "../contract/operations/index.js";
import { createSimulator, type Simulator } from "../simulator.js";
import { CATALOG_RECIPES } from "./openapi-example-catalog.js";
import type { ExampleRequest, Lookup, Recipe } from "./openapi-example-kit.js";
import { PEOPLE_RECIPES } from "./openapi-example-people.js";

const RECIPES = { ...CATALOG_RECIPES, ...PEOPLE_RECIPES };

/** The API root and store the examples are generated on: `retail-sim --clock manual`'s defaults. */
export const EXAMPLE_ORIGIN = "http://127.0.0.1:4747";
export const EXAMPLE_PREFIX = "demo";
export const EXAMPLE_SERVER = `${EXAMPLE_ORIGIN}/${EXAMPLE_PREFIX}/v1`;
export const EXAMPLES_FILE = "src/contract/openapi-examples.json";

/** The OAuth token endpoint, at the API root (spec, Authentication 3). */
const TOKEN = { id: "createToken", method: "POST", path: "/oauth/token", successStatus: 200 } as const;

/** Every operation that has examples: the table's and the token endpoint. */
export const EXAMPLE_OPERATIONS: readonly { id: string; method: string; path: string; successStatus: number }[] = [
  ...OPERATIONS,
  TOKEN,
];

/** A fresh demo simulator as the examples assume it: seed 1, manual clock at its default start, fixed origin. */
export function exampleSimulator(options: Parameters<typeof createSimulator>[0] = {}): Simulator {
  return createSimulator({ seed: 1, clock: "manual", publicUrl: EXAMPLE_ORIGIN, ...options });
}

export interface SendOptions {
  /** The demo store's key to send (default `full`); null sends no Authorization header. */
  readonly key?: string | null;
  /** The store whose base URL and key are used (default `demo`). */
  readonly prefix?: string;
}

export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** Sends one example request: path parameters filled in, query, `Idempotency-Key` and a JSON (or form) body. */
export async function sendExample(
  sim: Simulator,
  op: { readonly method: string; readonly path: string },
  request: ExampleRequest,
  options: SendOptions = {},
): Promise<Answer> {
  const prefix = options.prefix ?? EXAMPLE_PREFIX;
  const path = op.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = request.path?.[name];
    if (value === undefined) throw new Error(`${op.method} ${op.path}: no example for the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(
    Object.entries(request.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  const headers: Record<string, string> = { ...request.header };
  let body: string | undefined;
  let url: string;
  if (op.path === TOKEN.path) {
    url = `${EXAMPLE_ORIGIN}${path}`;
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(request.body as Record<string, string>).toString();
  } else {
    url = `${EXAMPLE_ORIGIN}/${prefix}/v1${path}${query ? `?${query}` : ""}`;
    const key = options.key === undefined ? "full" : options.key;
    if (key !== null) headers.authorization = `Bearer ${sim.token(prefix, key)}`;
    if (request.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(request.body);
    }
  }
  const res = await sim.fetch(url, { method: op.method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** The fixture's OAuth client and the demo store's admin, who consents to it. */
function oauthParties(sim: Simulator) {
  const credentials = sim.credentials(EXAMPLE_ORIGIN);
  const client = credentials.oauth_clients[0];
  const admin = credentials.users.find((u) => u.store_prefix === EXAMPLE_PREFIX && u.role === "admin");
  if (!client || !admin) throw new Error("the demo fixture has no OAuth client or demo admin");
  return { client: { ...client, redirect_uri: client.redirect_uris[0] as string }, admin };
}

/**
 * What a fresh simulator needs before an operation's example request can succeed: the token endpoint exchanges
 * a code that the demo admin's consent issued (`POST /_sim/oauth/authorize`); codes derive from the seed, so
 * every fresh simulator issues the same one. Answers the code, or undefined for the other operations.
 */
export function prepareExample(sim: Simulator, operationId: string): string | undefined {
  if (operationId !== TOKEN.id) return undefined;
  const { client, admin } = oauthParties(sim);
  const { redirect_to } = sim.control.authorize({
    body: {
      user_id: admin.id,
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      scope: "catalog:read inventory:read",
      state: "example",
      decision: "allow",
    },
  });
  const code = new URL(redirect_to).searchParams.get("code");
  if (code === null) throw new Error(`the consent gave no code: ${redirect_to}`);
  return code;
}

/** Reads the demo fixture through the API (a simulator without rate limits, used for nothing else). */
function demoLookup(): Lookup {
  const sim = exampleSimulator({ rateLimits: false });
  const pages = new Map<string, Promise<Answer>>();
  const get = (path: string, query: Record<string, string | number | boolean> = {}): Promise<Answer> => {
    const id = `${path}?${JSON.stringify(query)}`;
    let page = pages.get(id);
    if (!page) pages.set(id, (page = sendExample(sim, { method: "GET", path }, { query })));
    return page;
  };
  const rows = async (path: string): Promise<Record<string, any>[]> => {
    const paged = OPERATIONS.some((op) => op.method === "GET" && op.path === path && op.kind === "list");
    const { status, body } = await get(path, paged ? { limit: 200 } : {});
    if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
    return (body as { data: Record<string, any>[] }).data;
  };
  return {
    async find(path, field, value) {
      const found = (await rows(path)).find((row) => row[field] === value);
      if (!found) throw new Error(`the demo fixture has no row of ${path} with ${field} ${value}`);
      return found;
    },
    async nextCursor(path, query) {
      const { status, body } = await get(path, query);
      const cursor = (body as { next_cursor?: unknown }).next_cursor;
      if (status !== 200 || typeof cursor !== "string") throw new Error(`GET ${path} gave no next_cursor`);
      return cursor;
    },
    code: () => prepareExample(exampleSimulator(), TOKEN.id) as string,
    client: () => {
      const { client_id, client_secret, redirect_uri } = oauthParties(sim).client;
      return { client_id, client_secret, redirect_uri };
    },
  };
}

/** Runs one example request on a fresh simulator; throws when it does not answer the status it should. */
async function answer(
  op: { readonly id: string; readonly method: string; readonly path: string },
  request: ExampleRequest,
  status: number,
  options: SendOptions = {},
): Promise<Answer> {
  const sim = exampleSimulator();
  prepareExample(sim, op.id);
  const got = await sendExample(sim, op, request, options);
  if (got.status !== status)
    throw new Error(`${op.id}: the example answered ${got.status}, not ${status}: ${JSON.stringify(got.body)}`);
  return got;
}

/** The code of an error body: the envelope's `error.code`, or the token endpoint's `error` (spec, Authentication 8). */
export function codeOf(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (typeof error === "string") return error;
  return (error as { code?: string } | undefined)?.code;
}

async function generateOne(op: (typeof EXAMPLE_OPERATIONS)[number], recipe: Recipe): Promise<OperationExample> {
  const { request, error } = recipe;
  const success = await answer(op, request, op.successStatus);
  const { code, status, summary, key, prefix, ...errorRequest } = error;
  const failure = await answer(op, errorRequest, status, { key, prefix });
  const errorCode = codeOf(failure.body);
  if (errorCode !== code) throw new Error(`${op.id}: the error example answered ${errorCode}, not ${code}`);
  const example: ErrorExample = { code, status, summary, body: failure.body };
  return {
    name: recipe.name,
    summary: recipe.summary,
    path: request.path ?? {},
    query: request.query ?? {},
    header: request.header ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
    status: success.status,
    ...(success.body === undefined || op.id === "getOpenapi" ? {} : { response: success.body }),
    error: example,
  };
}

/** The examples of every operation, generated afresh: the same bytes every time (`serializeExamples`). */
export async function generateExamples(): Promise<OpenApiExamples> {
  const demo = demoLookup();
  const operations: Record<string, OperationExample> = {};
  for (const op of EXAMPLE_OPERATIONS) {
    const recipe = RECIPES[op.id];
    if (!recipe) throw new Error(`no example request for ${op.id}`);
    operations[op.id] = await generateOne(op, await recipe(demo));
  }
  return {
    about:
      "Generated by `npm run openapi:examples` from the demo fixture (seed 1, clock manual from 2026-01-01T00:00:00Z): each request ran against a fresh demo simulator. Do not edit.",
    server: EXAMPLE_SERVER,
    operations,
  };
}

/** The file's text: two-space JSON and a final newline. */
export const serializeExamples = (examples: OpenApiExamples): string => `${JSON.stringify(examples, null, 2)}\n`;
