import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { isUtcDateTime } from "../kernel/clock.js";
import { buildOpenApi, TOKEN_PATH } from "./openapi.js";
import { OPERATIONS } from "./operations/index.js";
import type { Operation } from "./operation.js";
import { Router } from "./router.js";
import { decimalsKeyword } from "./validate.js";

// Judges a response against the served OpenAPI document itself: the status must be one the document
// gives for the operation, and the JSON body must match the schema it gives for that status. The test
// harness runs it on every response; the conformance suite runs it on live targets.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = "retail-sim-openapi";
const STORE_PATH = /^\/[^/]+\/v1(\/.*)$/;

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked by JSON pointer, untyped
let state: { ajv: Ajv2020; doc: any; router: Router<Operation>; compiled: Map<string, ValidateFunction> } | undefined;

function setup() {
  if (state) return state;
  const doc = buildOpenApi("http://checker.invalid/store/v1") as Record<string, unknown>;
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addFormat("utc-date-time", { type: "string", validate: isUtcDateTime });
  ajv.addKeyword(decimalsKeyword("x-decimals"));
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const router = new Router<Operation>();
  for (const op of OPERATIONS) router.add(op.method, op.path, op);
  state = { ajv, doc, router, compiled: new Map() };
  return state;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

export interface CheckedResponse {
  readonly method: string;
  /** The request path as sent (`/demo/v1/products/...` or `/oauth/token`). */
  readonly path: string;
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: string | null;
}

/** What the document says is wrong with a response; empty when it describes it. Unknown paths are not judged. */
export function checkResponse(r: CheckedResponse): string[] {
  const { doc, router, ajv, compiled } = setup();
  let docPath: string;
  let method = r.method.toLowerCase();
  if (r.path === TOKEN_PATH) {
    if (method !== "post") return [];
    docPath = TOKEN_PATH;
  } else {
    const rest = STORE_PATH.exec(r.path)?.[1];
    const match = rest === undefined ? undefined : router.match(r.method, rest);
    if (!match) return [];
    docPath = match.route.path;
    method = match.route.method.toLowerCase();
  }
  const where = `${r.method} ${docPath} answered ${r.status}`;
  const response = doc.paths[docPath]?.[method]?.responses?.[String(r.status)];
  if (!response) return [`${where}, a status the document does not give for this operation`];
  const media = response.content?.["application/json"];
  if (!media)
    return r.body === null || r.body === "" ? [] : [`${where} with a body, where the document describes none`];
  if (!r.contentType?.startsWith("application/json"))
    return [`${where} with content-type ${r.contentType ?? "none"}, not application/json`];
  let body: unknown;
  try {
    body = JSON.parse(r.body ?? "");
  } catch {
    return [`${where} with a body that is not JSON`];
  }
  const ref = `${DOC_ID}#/${pointer("paths", docPath, method, "responses", String(r.status), "content", "application/json", "schema")}`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${where}: ${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)}`);
}
