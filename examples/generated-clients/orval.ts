// The same walk as heyapi.ts with the client orval generates (its fetch client) from the two documents:
// `orval/api.ts` from {base_url}/openapi.json, `orval/oauth.ts` from {api_root}/oauth/openapi.json, each with its
// document's server as base URL (orval.config.cjs). Orval's functions answer {data, status, headers}, narrowed by
// status; credentials and the Idempotency-Key header go in the RequestInit.
import { allPages, type Input, main, type Report, report, unexpected } from "./drive.js";
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
} from "./orval/api.js";
import { createToken, type OAuthError, type TokenResponse } from "./orval/oauth.js";

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
  const init = { headers: { Authorization: `Bearer ${input.key}` } };

  const listed = await listProducts({ limit: 3 }, init);
  if (listed.status !== 200) return unexpected("listProducts", listed.status, listed.data);
  // A list without include_deleted holds live rows only; the filter's own narrowing types them Product[].
  const first: Product[] = listed.data.data.filter((row) => row.deleted_at == null);

  const body = { name: "Generated Mug", sku: input.sku, retail_price: 1250 };
  const once = { headers: { ...init.headers, "Idempotency-Key": input.idempotencyKey } };
  const created = await createProduct(body, once);
  if (created.status !== 201) return unexpected("createProduct", created.status, created.data);
  const product: Product = created.data.data;
  const replay = await createProduct(body, once);
  if (replay.status !== 201) return unexpected("createProduct again", replay.status, replay.data);

  const updated = await updateProduct(product.id, { retail_price: 1300, version: product.version }, init);
  if (updated.status !== 200) return unexpected("updateProduct", updated.status, updated.data);
  const stale = await updateProduct(product.id, { name: "Again", version: product.version }, init);
  if (stale.status !== 409) return unexpected("stale update", stale.status, stale.data);
  const envelope: ErrorEnvelope = stale.data;

  const outlets = await listOutlets(undefined, init);
  const outlet = outlets.status === 200 ? outlets.data.data[0] : undefined;
  if (!outlet) return unexpected("listOutlets", outlets.status, outlets.data);
  const stock = await setStock(product.id, outlet.id, { on_hand: 7.5, unit_cost: 400 }, init);
  if (stock.status !== 200) return unexpected("setStock", stock.status, stock.data);
  const inventory = await getProductInventory(product.id, init);
  if (inventory.status !== 200) return unexpected("getProductInventory", inventory.status, inventory.data);
  const levels: InventoryLevel[] = inventory.data.data;

  const sales = await allPages<Sale>(async (cursor) => {
    const page = await listSales(cursor === undefined ? { limit: 4 } : { limit: 4, cursor }, init);
    return page.status === 200 ? page.data : unexpected("listSales", page.status, page.data);
  });

  const customers = await listCustomers({ limit: 2 }, init);
  if (customers.status !== 200) return unexpected("listCustomers", customers.status, customers.data);
  const people: Customer[] = customers.data.data.filter((row) => row.deleted_at == null);

  // The client authenticates with client_id and client_secret in the form (heyapi.ts uses HTTP Basic).
  const grant = {
    grant_type: "authorization_code" as const,
    code: input.code,
    redirect_uri: input.redirectUri,
    client_id: input.clientId,
    client_secret: input.clientSecret,
  };
  const token = await createToken(grant);
  if (token.status !== 200) return unexpected("createToken", token.status, token.data);
  const tokens: TokenResponse = token.data;
  const bearer = { headers: { Authorization: `Bearer ${tokens.access_token}` } };
  const me = await getMe(bearer);
  if (me.status !== 200) return unexpected("getMe", me.status, me.data);
  const codeAgain = await createToken(grant);
  if (codeAgain.status !== 400) return unexpected("createToken again", codeAgain.status, codeAgain.data);
  const oauthError: OAuthError = codeAgain.data;
  const revoked = await getMe(bearer);
  if (revoked.status !== 401) return unexpected("getMe after the code's reuse", revoked.status, revoked.data);

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
    stale: { status: stale.status, error: envelope },
    codeAgain: { status: codeAgain.status, error: oauthError },
    revoked: { status: revoked.status, error: revoked.data },
  });
}

main(drive);
