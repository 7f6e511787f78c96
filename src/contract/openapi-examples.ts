import { cursorForStore } from "../kernel/cursor.js";
import data from "./openapi-examples.json" with { type: "json" };

// Examples of every operation for the OpenAPI documents (docs/sdk-authors.md, Examples): one request per
// operation drawn from the demo fixture (seed 1, manual clock) and the simulator's real answer to it on a fresh
// demo store, plus one error answer. The data is generated, never written by hand: `npm run openapi:examples`
// runs each request against a fresh simulator and writes openapi-examples.json (a test keeps it in step).

/** A parameter's example value by location and name; the header is `Idempotency-Key`. */
export interface ExampleParameters {
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | number | boolean>>;
  readonly header: Readonly<Record<string, string>>;
}

/** An error answer of the operation, with what provokes it. */
export interface ErrorExample {
  readonly code: string;
  readonly status: number;
  readonly summary: string;
  readonly body: unknown;
}

export interface OperationExample extends ExampleParameters {
  /** The example's key in the `examples` maps of the request body and the success response. */
  readonly name: string;
  readonly summary: string;
  /** The request body: JSON, or the form fields of the token endpoint. */
  readonly body?: unknown;
  /** The documented success status the request answers. */
  readonly status: number;
  /** The success body; absent for 204 and for the OpenAPI document itself. */
  readonly response?: unknown;
  readonly error: ErrorExample;
}

export interface OpenApiExamples {
  readonly about: string;
  /** The `{base_url}` the examples were generated on (their image and token URLs name its origin). */
  readonly server: string;
  /** By operationId, the token endpoint's `createToken` included. */
  readonly operations: Readonly<Record<string, OperationExample>>;
}

export const OPENAPI_EXAMPLES = data as OpenApiExamples;

/** A named OpenAPI Example Object. */
export interface ExampleObject {
  readonly summary: string;
  readonly value: unknown;
}

/** What the document builder attaches to one operation (OpenAPI 3.1 `example` and `examples`). */
export interface OperationExamples {
  /** The `example` of a parameter, or undefined when it has none. */
  parameter(location: keyof ExampleParameters, name: string): unknown;
  /** The `examples` of the request body's media type. */
  readonly requestBody: Readonly<Record<string, ExampleObject>> | undefined;
  /** The `examples` of the media type of the response with this status. */
  response(status: number): Readonly<Record<string, ExampleObject>> | undefined;
}

const NONE: OperationExamples = {
  parameter: () => undefined,
  requestBody: undefined,
  response: () => undefined,
};

/** The store prefix the examples were generated on (`demo`). */
const EXAMPLE_PREFIX = new URL(OPENAPI_EXAMPLES.server).pathname.slice(1, -"/v1".length);

/**
 * A value with every URL on the origin the examples were generated on moved to `apiRoot`, so that a document
 * names its own API root in its examples (image URLs, a token's `api_base_url`), as every URL the simulator
 * writes does (docs/interfaces.md, `--public-url`); and with every cursor (`next_cursor`) moved to the store
 * `prefix` the document describes, since a cursor names its store's list.
 */
function rebased(value: unknown, apiRoot: string, prefix: string | undefined): unknown {
  const from = new URL(OPENAPI_EXAMPLES.server).origin;
  if (apiRoot === from && (prefix === undefined || prefix === EXAMPLE_PREFIX)) return value;
  return JSON.parse(JSON.stringify(value), (key, v) => {
    if (typeof v !== "string") return v;
    if (key === "next_cursor" && prefix !== undefined) return cursorForStore(v, EXAMPLE_PREFIX, prefix);
    return v === from || v.startsWith(`${from}/`) ? `${apiRoot}${v.slice(from.length)}` : v;
  });
}

/**
 * The examples of an operation (by its operationId) in a document served at `apiRoot`, for the store `prefix`
 * (none for the token endpoint's document); none if the data lacks it. Each example request works on a fresh
 * demo store of that prefix: a sandbox's `demo-sb1` as well as `demo`.
 */
export function operationExamples(operationId: string, apiRoot: string, prefix?: string): OperationExamples {
  const examples = OPENAPI_EXAMPLES.operations;
  const ex = Object.hasOwn(examples, operationId) ? examples[operationId] : undefined;
  if (!ex) return NONE;
  const example = (summary: string, value: unknown) => ({ summary, value: rebased(value, apiRoot, prefix) });
  return {
    parameter: (location, name) => {
      if (!Object.hasOwn(ex[location], name)) return undefined;
      const value = ex[location][name];
      return location === "query" && name === "cursor" && typeof value === "string" && prefix !== undefined
        ? cursorForStore(value, EXAMPLE_PREFIX, prefix)
        : value;
    },
    requestBody: ex.body === undefined ? undefined : { [ex.name]: example(ex.summary, ex.body) },
    response: (status) => {
      if (status === ex.status && ex.response !== undefined) return { [ex.name]: example(ex.summary, ex.response) };
      if (status === ex.error.status) return { [ex.error.code]: example(ex.error.summary, ex.error.body) };
      return undefined;
    },
  };
}

/** A Media Type Object with its `examples`, when there are any. */
export const withExamples = (
  media: Record<string, unknown>,
  examples: Readonly<Record<string, ExampleObject>> | undefined,
): Record<string, unknown> => (examples === undefined ? media : { ...media, examples });

/** `{example}` when there is one, else nothing: spread into a Parameter Object. */
export const exampleField = (value: unknown): { example?: unknown } => (value === undefined ? {} : { example: value });
