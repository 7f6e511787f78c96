// A stand-in for the SDK under test: a small hand-written client of the Retail Back-Office API. Yours
// replaces it; it needs nothing from the simulator but a base URL and a credential (an API key or an OAuth
// access token).

/** A refusal: the status and the envelope's code (or the OAuth `error`), its field errors and `Retry-After`. */
export class RetailError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: { field: string; message: string }[] = [],
    readonly retryAfter: number | null = null,
    /** The `data` sent next to the error (a product saved although its image failed: 422 IMAGE_FETCH_FAILED). */
    readonly data: unknown = undefined,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface Product {
  id: string;
  sku: string;
  name: string;
  retail_price: number;
  is_gift_card: boolean;
  has_inventory: boolean;
  brand_id: string | null;
  created_at: string;
  updated_at: string;
  version: string;
}

export interface Brand {
  id: string;
  name: string;
  description: string | null;
  version: string;
}

/** A success: its status, body and whether the server replayed a remembered answer (`Idempotent-Replayed`). */
export interface Answer<T> {
  status: number;
  data: T;
  replayed: boolean;
}

/** A JSON answer of any shape, as read from the wire (the tests assert on it). */
// biome-ignore lint/suspicious/noExplicitAny: the shape of JSON from the wire is what the tests check
export type Json = any;

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  idempotencyKey?: string;
}

export class RetailClient {
  constructor(
    readonly baseUrl: string,
    private readonly credential: string | null,
  ) {}

  /** The same API with another credential (null: none at all). */
  withCredential(credential: string | null): RetailClient {
    return new RetailClient(this.baseUrl, credential);
  }

  /** Any operation; a refusal throws a RetailError. `data` is the whole JSON body (`{data, ...}`), or null for 204. */
  async send<T = Json>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = {};
    if (this.credential !== null) headers.authorization = `Bearer ${this.credential}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) query.set(name, String(value));
    const res = await fetch(`${this.baseUrl}${path}${query.size > 0 ? `?${query}` : ""}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    const json = text === "" ? null : JSON.parse(text);
    if (!res.ok) {
      const { error } = json as { error: { code: string; message: string; fields?: RetailError["fields"] } };
      const retryAfter = res.headers.get("retry-after");
      throw new RetailError(
        res.status,
        error.code,
        error.message,
        error.fields,
        retryAfter === null ? null : Number(retryAfter),
        json.data,
      );
    }
    return { status: res.status, data: json as T, replayed: res.headers.get("idempotent-replayed") === "true" };
  }

  /** Every row of a list, page after page, following `next_cursor` until `has_more` is false. */
  async all<T = Json>(path: string, query: Query = {}): Promise<T[]> {
    const rows: T[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = (await this.send<Page<T>>("GET", path, { query: { ...query, cursor } })).data;
      rows.push(...page.data);
      if (!page.has_more || page.next_cursor === null) return rows;
      cursor = page.next_cursor;
    }
  }

  listProducts(query: Query = {}): Promise<Page<Product>> {
    return this.send<Page<Product>>("GET", "/products", { query }).then((a) => a.data);
  }

  /** The live product with this SKU (`GET /products?sku=`), or undefined. */
  async productBySku(sku: string): Promise<Product | undefined> {
    return (await this.listProducts({ sku })).data[0];
  }

  async createProduct(body: Record<string, unknown>, idempotencyKey?: string): Promise<Product> {
    return (await this.send<{ data: Product }>("POST", "/products", { body, idempotencyKey })).data.data;
  }

  async updateProduct(id: string, body: Record<string, unknown>): Promise<Product> {
    return (await this.send<{ data: Product }>("PATCH", `/products/${id}`, { body })).data.data;
  }

  async listBrands(): Promise<Brand[]> {
    return this.all<Brand>("/brands", { limit: 200 });
  }

  async createBrand(body: { name: string }, idempotencyKey?: string): Promise<Answer<Brand>> {
    const answer = await this.send<{ data: Brand }>("POST", "/brands", { body, idempotencyKey });
    return { ...answer, data: answer.data.data };
  }
}

/** The refusal a call ended with; a success is an error here. */
export const failure = (call: Promise<unknown>): Promise<RetailError> =>
  call.then(
    (answer) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(answer)}`);
    },
    (error: unknown) => {
      if (error instanceof RetailError) return error;
      throw error;
    },
  );

/** What a call ended with: `[status]` on success, `[status, code]` on a refusal. */
export const outcome = (call: Promise<Answer<unknown>>): Promise<[number] | [number, string]> =>
  call.then(
    (answer): [number] => [answer.status],
    (error: unknown): [number, string] => {
      if (error instanceof RetailError) return [error.status, error.code];
      throw error;
    },
  );

/** The token endpoint's answer: `{access_token, refresh_token, ...}`, or the OAuth error `{error, error_description}`. */
export interface TokenAnswer {
  status: number;
  body: Json;
}

/**
 * `POST {api_root}/oauth/token` with a form body (spec, Authentication 3 to 8). `basic` sends the client's
 * credentials as HTTP Basic instead of in the form.
 */
export async function oauthToken(
  apiRoot: string,
  form: Record<string, string>,
  basic?: { client_id: string; client_secret: string },
): Promise<TokenAnswer> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (basic) headers.authorization = `Basic ${btoa(`${basic.client_id}:${basic.client_secret}`)}`;
  const res = await fetch(`${apiRoot}/oauth/token`, { method: "POST", headers, body: new URLSearchParams(form) });
  return { status: res.status, body: await res.json() };
}
