// Checks of the examples an OpenAPI document carries (docs/sdk-authors.md, Examples), read from the document alone:
// every example against its schema, and each operation's example request as the document gives it (parameters'
// `example`, the request body's `examples`) with the success answer the document shows.
import type { ValidateFunction } from "ajv";
import { documentAjv } from "../contract/response-check.js";
import type { ExampleRequest } from "./openapi-example-kit.js";

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const DOC_ID = "examples-under-test";

const pointer = (...parts: string[]): string =>
  parts.map((p) => `/${p.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");

type Json = any;

/** A `$ref` inside the document, followed; anything else as is. */
function resolve(doc: Json, node: Json): Json {
  if (!node || typeof node.$ref !== "string" || !node.$ref.startsWith("#/")) return node;
  const target = node.$ref
    .slice(2)
    .split("/")
    .reduce((at: Json, part: string) => at?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  return resolve(doc, target);
}

/** One operation of a document, with where it sits. */
export interface DocumentOperation {
  readonly path: string;
  readonly method: string;
  readonly operation: Json;
}

export function documentOperations(doc: Json): DocumentOperation[] {
  const found: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Json][])
    for (const method of METHODS) if (item[method]) found.push({ path, method, operation: item[method] });
  return found;
}

/** Every example value of a media type: `example` and each of `examples`. */
function mediaExamples(media: Json): [string, unknown][] {
  const found: [string, unknown][] = [];
  if (media.example !== undefined) found.push(["example", media.example]);
  for (const [name, ex] of Object.entries(media.examples ?? {}) as [string, Json][])
    found.push([`examples.${name}`, ex.value]);
  return found;
}

/**
 * What is wrong with the examples of a document: each parameter's `example` against the parameter's schema, each
 * request body and response example against its media type's schema, read as the response checker reads them
 * (`documentAjv`). Empty when all validate.
 */
export function exampleProblems(doc: Json): string[] {
  const ajv = documentAjv();
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const problems: string[] = [];
  const check = (where: string, schemaAt: string, value: unknown) => {
    let validate: ValidateFunction;
    try {
      validate = ajv.compile({ $ref: `${DOC_ID}#${schemaAt}` });
    } catch (error) {
      problems.push(`${where}: the schema does not compile: ${(error as Error).message}`);
      return;
    }
    if (!validate(value))
      for (const e of (validate.errors ?? []).slice(0, 3))
        problems.push(`${where}: ${e.instancePath || "(value)"} ${e.message} ${JSON.stringify(e.params)}`);
  };
  for (const { path, method, operation } of documentOperations(doc)) {
    const at = pointer("paths", path, method);
    const what = `${method.toUpperCase()} ${path}`;
    (operation.parameters ?? []).forEach((raw: Json, i: number) => {
      const parameter = resolve(doc, raw);
      const schemaAt = raw.$ref ? `${raw.$ref.slice(1)}/schema` : `${at}${pointer("parameters", String(i), "schema")}`;
      if (parameter.example !== undefined)
        check(`${what} parameter ${parameter.name} example`, schemaAt, parameter.example);
    });
    const media = (base: string, content: Json, label: string) => {
      for (const [type, m] of Object.entries(content ?? {}) as [string, Json][])
        for (const [name, value] of mediaExamples(m))
          check(`${what} ${label} ${type} ${name}`, `${base}${pointer("content", type, "schema")}`, value);
    };
    const body = resolve(doc, operation.requestBody);
    if (body) media(`${at}/requestBody`, body.content, "request body");
    for (const [status, raw] of Object.entries(operation.responses ?? {}) as [string, Json][]) {
      const base = raw.$ref ? raw.$ref.slice(1) : `${at}${pointer("responses", status)}`;
      media(base, resolve(doc, raw).content, `response ${status}`);
    }
  }
  return problems;
}

/** An operation's example request as its document gives it, with the success status and body it documents. */
export interface DocumentedExample {
  readonly request: ExampleRequest;
  readonly status: number;
  /** The success response's example body; undefined when the document shows none. */
  readonly body: unknown;
}

const firstExample = (media: Json): unknown => mediaExamples(media ?? {})[0]?.[1];

export function documentedExample(doc: Json, operation: Json): DocumentedExample {
  const parts: Record<"path" | "query" | "header", Record<string, Json>> = { path: {}, query: {}, header: {} };
  for (const raw of operation.parameters ?? []) {
    const parameter = resolve(doc, raw);
    if (parameter.example !== undefined && parameter.in in parts)
      parts[parameter.in as keyof typeof parts][parameter.name] = parameter.example;
  }
  const content = resolve(doc, operation.requestBody)?.content;
  const requestBody = content ? firstExample(Object.values(content)[0]) : undefined;
  const [status, raw] = (Object.entries(operation.responses) as [string, Json][]).find(([s]) => /^2/.test(s)) ?? [];
  if (status === undefined) throw new Error(`${operation.operationId} documents no success`);
  const success = resolve(doc, raw).content;
  return {
    request: { ...parts, ...(requestBody === undefined ? {} : { body: requestBody }) },
    status: Number(status),
    body: success ? firstExample(Object.values(success)[0]) : undefined,
  };
}

/**
 * What an operation lacks of the examples it should carry: one for every path parameter and for its
 * `Idempotency-Key`, its request body, its success response (unless it answers no body or the document
 * itself), and at least one error response.
 */
export function missingExamples(doc: Json, operation: Json, options: { successBody: boolean }): string[] {
  const missing: string[] = [];
  for (const raw of operation.parameters ?? []) {
    const parameter = resolve(doc, raw);
    if ((parameter.in === "path" || parameter.in === "header") && parameter.example === undefined)
      missing.push(`parameter ${parameter.name}`);
  }
  const body = resolve(doc, operation.requestBody);
  if (body && Object.values(body.content).some((m) => mediaExamples(m).length === 0)) missing.push("request body");
  const responses = Object.entries(operation.responses) as [string, Json][];
  const examplesOf = (raw: Json) =>
    Object.values(resolve(doc, raw).content ?? {}).flatMap((m) => mediaExamples(m)).length;
  if (options.successBody && !responses.some(([s, r]) => /^2/.test(s) && examplesOf(r) > 0))
    missing.push("success response");
  if (!responses.some(([s, r]) => /^[45]/.test(s) && examplesOf(r) > 0)) missing.push("error response");
  return missing;
}
