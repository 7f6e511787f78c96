import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { buildOpenApi } from "./openapi.js";
import { buildOAuthOpenApi, TOKEN_PATH } from "./openapi-oauth.js";
import { OPERATIONS } from "./operations/index.js";
import type { Operation } from "./operation.js";
import { apiRouter, type Router } from "./router.js";
import { withContractRules } from "./validate.js";

// Judges a response against the served OpenAPI document itself: the status must be one the document
// gives for the operation, and the JSON body must match the schema it gives for that status. The test
// harness runs it on every response a test gets.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = "retail-sim-openapi";
const OAUTH_DOC_ID = "retail-sim-oauth-openapi";
const STORE_PATH = /^\/[^/]+\/v1(\/.*)$/;

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/**
 * An ajv that reads the OpenAPI documents' schemas as the server means them: JSON Schema 2020-12 with formats,
 * Z-only date-times and the `x-decimals` keyword.
 */
export function documentAjv(): Ajv2020 {
  return withContractRules(addFormats(new Ajv2020({ strict: false, allErrors: true })), "x-decimals");
}

export interface CheckedResponse {
  readonly method: string;
  /** The request path as sent (`/demo/v1/products/...` or `/oauth/token`). */
  readonly path: string;
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: string | null;
}

/**
 * A checker over the OpenAPI document it builds once: the document, an ajv instance that holds it, the
 * API's route lookup (the contract's, as the server uses it) and the validators compiled so far.
 */
export class ResponseChecker {
  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked by JSON pointer, untyped
  private readonly doc: any;
  private readonly ajv: Ajv2020;
  private readonly routes: Router<Operation> = apiRouter(OPERATIONS);
  private readonly compiled = new Map<string, ValidateFunction>();

  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked by JSON pointer, untyped
  private readonly oauthDoc: any;

  constructor() {
    this.doc = buildOpenApi("http://checker.invalid/store/v1");
    this.oauthDoc = buildOAuthOpenApi("http://checker.invalid");
    this.ajv = documentAjv();
    this.ajv.addSchema({ ...this.doc, $id: DOC_ID });
    this.ajv.addSchema({ ...this.oauthDoc, $id: OAUTH_DOC_ID });
  }

  /** What the document says is wrong with a response; empty when it describes it. Unknown paths are not judged. */
  check(r: CheckedResponse): string[] {
    let docPath: string;
    let method = r.method.toLowerCase();
    let doc = this.doc;
    let docId = DOC_ID;
    if (r.path === TOKEN_PATH) {
      if (method !== "post") return [];
      docPath = TOKEN_PATH;
      doc = this.oauthDoc;
      docId = OAUTH_DOC_ID;
    } else {
      const match = STORE_PATH.test(r.path) ? this.routes.match(r.method, r.path) : undefined;
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
    const ref = `${docId}#/${pointer("paths", docPath, method, "responses", String(r.status), "content", "application/json", "schema")}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    if (validate(body)) {
      // The codes the document gives this operation for this status (`x-error-codes` of the response).
      const codes: string[] | undefined = response["x-error-codes"];
      const code = (body as { error?: { code?: unknown } }).error?.code;
      if (codes && !codes.includes(code as string))
        return [`${where} with code ${String(code)}, not one of ${codes.join(", ")}`];
      return [];
    }
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${where}: ${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)}`);
  }
}

/** The checker of `checkResponse`, for callers that keep none of their own: built on first use. */
let shared: ResponseChecker | undefined;

/** `ResponseChecker.check` on one checker shared by the callers that keep none of their own. */
export function checkResponse(r: CheckedResponse): string[] {
  shared ??= new ResponseChecker();
  return shared.check(r);
}
