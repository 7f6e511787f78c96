// A walk through the API with the client @hey-api/openapi-ts generates (its fetch client) from the two documents:
// `heyapi/api` from {base_url}/openapi.json, `heyapi/oauth` from {api_root}/oauth/openapi.json. Each generated
// client's base URL is its document's server; the driver adds nothing but credentials.
import { type Answer, allPages, type Input, main, type Refusal, type Report, report, unexpected } from "./drive.js";
import { client } from "./heyapi/api/client.gen.js";
import {
  type Customer,
  createProduct,
  type ErrorEnvelope,
  getMe,
  getProductInventory,
  type InventoryLevel,
  listCustomers,
  listOutlets,
  listProducts,
  listSales,
  type Product,
  type Sale,
  setStock,
  type Tombstone,
  updateProduct,
} from "./heyapi/api/index.js";
import { createToken, type OAuthError, type TokenResponse } from "./heyapi/oauth/index.js";

/** What a generated function resolves to (its `fields` style): the body or the error body, and the response. */
interface Result<T, E> {
  data?: T;
  error?: E;
  response?: Response;
}

/** The body, status and headers of a call that must succeed. */
function ok<T, E>(what: string, { data, error, response }: Result<T, E>): Answer<T> {
  if (error !== undefined || data === undefined || !response) return unexpected(what, response?.status ?? 0, error);
  return { data, status: response.status, headers: response.headers };
}

/** The error body and status of a call that must fail. */
function refused<T, E>(what: string, { data, error, response }: Result<T, E>): Refusal<E> {
  if (error === undefined || !response) return unexpected(what, response?.status ?? 0, data);
  return { error, status: response.status };
}

/**
 * A row of a list that takes `include_deleted`: the generated `Product | Tombstone` narrows on `deleted_at`, which
 * a live row declares absent (typed `null`) and a tombstone carries, with no cast and no type guard of one's own.
 */
export function describeRow(row: Product | Tombstone): string {
  if (row.deleted_at != null) {
    const tombstone: Tombstone = row;
    return `${tombstone.id} deleted at ${tombstone.deleted_at}`;
  }
  return `${row.sku}: ${row.name}`;
}

async function drive(input: Input): Promise<Report> {
  client.setConfig({ auth: input.key });

  const listed = ok("listProducts", await listProducts({ query: { limit: 3 } }));
  // A list without include_deleted holds live rows only; the filter's own narrowing types them Product[].
  const first: Product[] = listed.data.data.filter((row) => row.deleted_at == null);

  const body = { name: "Generated Mug", sku: input.sku, retail_price: 1250 };
  const headers = { "Idempotency-Key": input.idempotencyKey };
  const created = ok("createProduct", await createProduct({ body, headers }));
  const product: Product = created.data.data;
  const replay = ok("createProduct again", await createProduct({ body, headers }));

  const path = { id: product.id };
  const updated = ok(
    "updateProduct",
    await updateProduct({ path, body: { retail_price: 1300, version: product.version } }),
  );
  const stale = refused(
    "stale update",
    await updateProduct({ path, body: { name: "Again", version: product.version } }),
  );
  const envelope: ErrorEnvelope = stale.error;

  const outlet = ok("listOutlets", await listOutlets()).data.data[0];
  if (!outlet) return unexpected("listOutlets", 200, "no outlet");
  const stock = ok(
    "setStock",
    await setStock({ path: { id: product.id, outlet_id: outlet.id }, body: { on_hand: 7.5, unit_cost: 400 } }),
  );
  const levels: InventoryLevel[] = ok("getProductInventory", await getProductInventory({ path })).data.data;

  const sales = await allPages<Sale>(
    async (cursor) =>
      ok("listSales", await listSales({ query: cursor === undefined ? { limit: 4 } : { limit: 4, cursor } })).data,
  );

  const customers = ok("listCustomers", await listCustomers({ query: { limit: 2 } }));
  const people: Customer[] = customers.data.data.filter((row) => row.deleted_at == null);

  // The client authenticates with HTTP Basic (the document's clientBasic scheme; orval.ts sends the form fields).
  const exchange = {
    body: { grant_type: "authorization_code" as const, code: input.code, redirect_uri: input.redirectUri },
    auth: `${input.clientId}:${input.clientSecret}`,
  };
  const token = ok("createToken", await createToken(exchange));
  const tokens: TokenResponse = token.data;
  const me = ok("getMe", await getMe({ auth: tokens.access_token }));
  const codeAgain = refused("createToken again", await createToken(exchange));
  const oauthError: OAuthError = codeAgain.error;
  const revoked = refused("getMe after the code's reuse", await getMe({ auth: tokens.access_token }));

  return report({
    listed,
    first,
    created,
    replay,
    updated,
    stock,
    levels,
    sales,
    customers,
    people,
    token,
    me,
    revoked,
    stale: { status: stale.status, error: envelope },
    codeAgain: { status: codeAgain.status, error: oauthError },
  });
}

main(drive);
