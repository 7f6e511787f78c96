import type { SimRequest, SimResponse } from "../../../src/http/types.js";

// Deliberately broken simulators, each violating one spec rule, to prove the suite detects it.
// A mutant wraps the simulator's handler: it rewrites requests or responses, or replays requests.

export interface Mutant {
  readonly name: string;
  /** The spec rule it breaks, in words. */
  readonly breaks: string;
  /** Rule ids expected to catch it (at least one must fail). */
  readonly caughtBy: readonly string[];
  wrap(next: (req: SimRequest) => Promise<SimResponse>): (req: SimRequest) => Promise<SimResponse>;
}

export const API = /^\/[^/]+\/v1\//;

/** A request's body as text ("" when it has none). */
export const bodyText = (req: SimRequest): string => (req.body ? Buffer.from(req.body).toString("utf8") : "");

/** A request's body as JSON, or undefined when it has none or it is not JSON. */
export const bodyOf = (req: SimRequest): any => {
  try {
    return req.body ? JSON.parse(bodyText(req)) : undefined;
  } catch {
    return undefined;
  }
};

/** The request with this raw body (and a Content-Length that says so). */
export const withRaw = (req: SimRequest, text: string): SimRequest => {
  const bytes = new TextEncoder().encode(text);
  return { ...req, body: bytes, headers: { ...req.headers, "content-length": String(bytes.length) } };
};

/** The request with this JSON body. */
export const withBody = (req: SimRequest, body: unknown): SimRequest => withRaw(req, JSON.stringify(body));

/** Rewrites JSON bodies of API responses. */
export const mapJson = (res: SimResponse, f: (body: any) => any): SimResponse => {
  if (typeof res.body !== "string" || !res.headers["content-type"]?.startsWith("application/json")) return res;
  return { ...res, body: JSON.stringify(f(JSON.parse(res.body))) };
};

/** Spec, Resources: Customer: the fields of the document. */
export const CUSTOMER_FIELDS: ReadonlySet<string> = new Set([
  "id",
  "customer_group_id",
  "customer_code",
  "first_name",
  "last_name",
  "company_name",
  "email",
  "phone",
  "mobile",
  "website",
  "gender",
  "tax_id",
  "note",
  "date_of_birth",
  "address_1",
  "address_2",
  "city",
  "state",
  "zipcode",
  "country",
  "custom_field_1",
  "custom_field_2",
  "custom_field_3",
  "custom_field_4",
  "on_account_limit",
  "enable_loyalty",
  "dont_email",
  "dont_sms",
  "do_not_sell_share",
  "is_walk_in",
  "created_at",
  "updated_at",
  "version",
]);
