// A stand-in for the SDK under test: a small hand-written client of the Retail Back-Office API. Yours
// replaces it; it needs nothing from the simulator but a base URL and a key.

export class RetailError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
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

export interface Answer<T> {
  data: T;
  /** True when the server replayed a remembered answer (the `Idempotent-Replayed` header). */
  replayed: boolean;
}

export class RetailClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  listProducts(query: { limit?: number; cursor?: string } = {}): Promise<Page<Product>> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    if (query.cursor !== undefined) params.set("cursor", query.cursor);
    return this.send<Page<Product>>("GET", `/products?${params}`).then((a) => a.data);
  }

  async createProduct(body: { name: string; retail_price: number }): Promise<Product> {
    return (await this.send<{ data: Product }>("POST", "/products", body)).data.data;
  }

  async updateProduct(id: string, body: { version: string; retail_price?: number }): Promise<Product> {
    return (await this.send<{ data: Product }>("PATCH", `/products/${id}`, body)).data.data;
  }

  async listBrands(): Promise<Brand[]> {
    return (await this.send<Page<Brand>>("GET", "/brands?limit=200")).data.data;
  }

  async createBrand(body: { name: string }, idempotencyKey?: string): Promise<Answer<Brand>> {
    const answer = await this.send<{ data: Brand }>("POST", "/brands", body, idempotencyKey);
    return { data: answer.data.data, replayed: answer.replayed };
  }

  private async send<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<Answer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await res.json();
    if (!res.ok) {
      const { error } = json as { error: { code: string; message: string } };
      throw new RetailError(res.status, error.code, error.message);
    }
    return { data: json as T, replayed: res.headers.get("idempotent-replayed") === "true" };
  }
}
