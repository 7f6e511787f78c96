import { isTimeZone, iso, LAST_INSTANT, PAST_LAST_INSTANT, parseUtcDateTime } from "../kernel/clock.js";
import { fromMilli } from "../kernel/quantity.js";
import { fail, ok, type Result } from "../kernel/result.js";
import { apiError, codeForStatus, invalid, isErrorCode, notFound, type ApiError } from "../contract/errors.js";
import type {
  AuthorizeBody,
  ClientBody,
  ClockBody,
  FaultBody,
  ImageBody,
  KeyBody,
  OutletBody,
  RefundBody,
  SaleBody,
  StorePatchBody,
} from "../contract/schemas/control.js";
import type { Customer } from "../contract/schemas/customers.js";
import type { Outlet } from "../contract/schemas/account.js";
import type { Sale } from "../contract/schemas/sales.js";
import { customerView } from "./customers/operations.js";
import { createSale, refundSale, voidSale } from "./sales/operations.js";
import { saleView } from "./sales/views.js";
import { outletView, reasonView } from "./account/views.js";
import { stateAt, type Connection, type Credential } from "./auth/credentials.js";
import { checkAuthorize, decide, userRefusal } from "./auth/oauth.js";
import { MAX_FAULTS, type Fault } from "./faults.js";
import { MAX_IMAGE_OUTCOMES } from "./catalog/images.js";
import { MAX_OUTLETS, type StoreState } from "./store.js";
import type { OAuthClientRecord, World } from "./world.js";

// Control operations (docs/interfaces.md, Control plane): states the public API cannot create. The handlers of
// the control table (control-handlers.ts) call these, for the /_sim routes (after validating the
// body) and for the library's functions alike.

export interface KeyView {
  readonly id: string;
  readonly name: string;
  readonly token: string;
  readonly scopes: readonly string[];
  readonly state: string;
}

export interface CredentialsView {
  readonly api_root: string;
  readonly auth_url: string;
  readonly stores: {
    prefix: string;
    name: string;
    base_url: string;
    plan: string;
    status: string;
    keys: KeyView[];
  }[];
  readonly oauth_clients: { client_id: string; client_secret: string; name: string; redirect_uris: string[] }[];
  readonly users: { id: string; email: string; password: string; store_prefix: string; role: string; plan: string }[];
}

export const keyView = (world: World, c: Credential): KeyView => ({
  id: c.id,
  name: c.name,
  token: world.issuedKeys.get(c.id) ?? "",
  scopes: [...c.scopes],
  state: stateAt(c, world.env.clock.now()),
});

export function credentialsView(world: World, apiRoot: string, authUrl = apiRoot): CredentialsView {
  return {
    api_root: apiRoot,
    auth_url: authUrl,
    stores: [...world.stores.values()].map((s) => ({
      prefix: s.prefix,
      name: s.settings.name,
      base_url: `${apiRoot}/${s.prefix}/v1`,
      plan: s.settings.plan,
      status: s.settings.status,
      keys: world.credentials
        .forStore(s.prefix)
        .filter((c) => c.kind === "api_key")
        .map((c) => keyView(world, c)),
    })),
    oauth_clients: world.oauthClients.map(clientView),
    users: world.users.map((u) => ({
      id: u.id,
      email: u.email,
      password: u.password,
      store_prefix: u.storePrefix,
      role: u.role,
      plan: world.stores.get(u.storePrefix)?.settings.plan ?? "growth",
    })),
  };
}

export function storeControlView(store: StoreState) {
  const s = store.settings;
  return { prefix: s.prefix, name: s.name, plan: s.plan, status: s.status, product_limit: s.productLimit };
}

function findStore(world: World, prefix: string): Result<StoreState, ApiError> {
  const store = world.stores.get(prefix);
  return store ? ok(store) : fail(notFound(`store "${prefix}"`));
}

export function createKey(world: World, prefix: string, body: KeyBody): Result<KeyView, ApiError> {
  const store = findStore(world, prefix);
  return store.ok ? ok(keyView(world, world.createKey(store.value, body.name, body.scopes))) : store;
}

/** Spec, States: a revoked credential stops working at once. */
export function revokeKey(world: World, id: string): Result<{ id: string; state: "revoked" }, ApiError> {
  const credential = world.credentials.get(id);
  if (!credential) return fail(notFound("key"));
  credential.state = "revoked";
  return ok({ id: credential.id, state: "revoked" });
}

export function patchStore(
  world: World,
  prefix: string,
  body: StorePatchBody,
): Result<ReturnType<typeof storeControlView>, ApiError> {
  const found = findStore(world, prefix);
  if (!found.ok) return found;
  const s = found.value.settings;
  if (body.plan !== undefined) s.plan = body.plan;
  if (body.status !== undefined) s.status = body.status;
  if (body.product_limit !== undefined) s.productLimit = body.product_limit;
  return ok(storeControlView(found.value));
}

export const clockView = (world: World) => ({ now: iso(world.env.clock.now()) });

/**
 * Moves the simulator's clock forward, never back and never past `LAST_INSTANT` (docs/interfaces.md, Control plane:
 * either answers 400 and changes nothing).
 */
export function moveClock(world: World, body: ClockBody): Result<{ now: string }, ApiError> {
  const clock = world.env.clock;
  const now = clock.now();
  const field = "set" in body ? "set" : "advance_seconds";
  const target = "set" in body ? parseUtcDateTime(body.set) : now + Math.round(body.advance_seconds * 1000);
  if (target === undefined) return fail(invalid("set", "must be an ISO 8601 date-time in UTC ending in Z"));
  if (target < now) return fail(invalid("set", `is earlier than the simulator's now (${iso(now)})`));
  if (target > LAST_INSTANT) return fail(invalid(field, PAST_LAST_INSTANT));
  // A system clock runs on while this runs: an advance moves it by exactly the step.
  if (field === "set") clock.set(target);
  else clock.advance(target - now);
  return ok(clockView(world));
}

export interface FaultView {
  readonly id: number;
  readonly method: string | null;
  readonly path: string | null;
  readonly status: number | null;
  readonly code: string | null;
  readonly times: number | null;
  readonly remaining: number | null;
  readonly delay_ms: number;
  readonly after_commit: boolean;
  readonly hold: boolean;
  /** Requests this fault holds right now. */
  readonly held: number;
}

export const faultView = (f: Fault): FaultView => ({
  id: f.id,
  method: f.method ?? null,
  path: f.path ?? null,
  status: f.status ?? null,
  code: f.code ?? null,
  times: f.times ?? null,
  remaining: f.remaining,
  delay_ms: f.delay_ms ?? 0,
  after_commit: f.after_commit ?? false,
  hold: f.hold ?? false,
  held: f.held.length,
});

export function addFault(world: World, body: FaultBody): Result<FaultView, ApiError> {
  // Every API request looks through the faults in place: their number is bounded.
  if (world.faults.list().length >= MAX_FAULTS) {
    return fail(
      apiError("CONFLICT", `A sandbox holds at most ${MAX_FAULTS} faults: clear some (DELETE /_sim/faults) first.`),
    );
  }
  if (body.hold) {
    // A hold only holds: what the request answers is its own once released.
    for (const field of ["status", "code", "delay_ms", "after_commit"] as const) {
      if (body[field] !== undefined) return fail(invalid(field, "cannot be combined with hold"));
    }
    return ok(faultView(world.faults.add({ method: body.method, path: body.path, times: body.times, hold: true })));
  }
  if (body.after_commit && body.status === undefined) return fail(invalid("status", "is required with after_commit"));
  if (body.status === undefined && body.delay_ms === undefined) {
    return fail(
      apiError("VALIDATION_FAILED", "A fault needs a status, a delay_ms, or both (or hold).", [
        { field: "status", message: "is required without delay_ms or hold" },
      ]),
    );
  }
  if (body.code === undefined) {
    return ok(
      faultView(
        world.faults.add({ ...body, code: body.status === undefined ? undefined : codeForStatus(body.status) }),
      ),
    );
  }
  if (!isErrorCode(body.code)) return fail(invalid("code", "is not a code of the error catalog"));
  return ok(faultView(world.faults.add({ ...body, code: body.code })));
}

/** docs/interfaces.md, Control plane: POST /_sim/images, at most MAX_IMAGE_OUTCOMES URLs per sandbox. */
export function setImageOutcome(world: World, body: ImageBody): Result<ImageBody, ApiError> {
  if (!world.images.setOutcome(body.url, body.outcome)) {
    return fail(
      apiError(
        "CONFLICT",
        `A sandbox holds outcomes for at most ${MAX_IMAGE_OUTCOMES} image URLs: reset it to set others.`,
      ),
    );
  }
  return ok({ url: body.url, outcome: body.outcome });
}

/**
 * docs/interfaces.md, Control plane: POST /_sim/stores/{prefix}/outlets, a new active outlet, answered as
 * GET /outlets shows it. Its id draws from the world's id stream (the same seed and calls give the same
 * id); its timezone and default tax default to the store's zone and first tax. A store keeps at most
 * MAX_OUTLETS live outlets.
 */
export function createOutlet(world: World, prefix: string, body: OutletBody): Result<Outlet, ApiError> {
  const found = findStore(world, prefix);
  if (!found.ok) return found;
  const store = found.value;
  const timezone = body.timezone ?? store.settings.timezone;
  if (!isTimeZone(timezone)) return fail(invalid("timezone", "is not an IANA time zone name (America/Chicago)"));
  const taxId =
    body.default_tax_id === undefined
      ? [...store.taxes.all()].find((r) => r.deletedAt === null)?.id
      : store.taxes.live(body.default_tax_id)?.id;
  if (taxId === undefined)
    return fail(
      invalid(
        "default_tax_id",
        body.default_tax_id === undefined ? "is required: the store has no tax" : "is not a tax of this store",
      ),
    );
  let live = 0;
  for (const row of store.outlets.all()) if (row.deletedAt === null) live += 1;
  if (live >= MAX_OUTLETS)
    return fail(
      apiError(
        "CONFLICT",
        `A store has at most ${MAX_OUTLETS} live outlets: delete one (DELETE /_sim/stores/${prefix}/outlets/{id}) first.`,
      ),
    );
  const id = world.env.ids.uuid();
  const row = store.outlets.put(id, { id, name: body.name, timezone, status: "active", default_tax_id: taxId });
  // GET /store names the first outlet made as the default; its version moves when that changes.
  if (store.settings.defaultOutletId === null) {
    store.settings.defaultOutletId = id;
    store.settingsSeq = store.nextSeq();
  }
  return ok(outletView(row));
}

/** docs/interfaces.md, Control plane: DELETE /_sim/stores/{prefix}/outlets/{id}. Spec: a deleted outlet rejects stock writes. */
export function deleteOutlet(world: World, prefix: string, id: string): Result<undefined, ApiError> {
  const store = findStore(world, prefix);
  if (!store.ok) return store;
  return store.value.outlets.markDeleted(id, world.env.clock.now()) ? ok(undefined) : fail(notFound("outlet"));
}

/** docs/interfaces.md, Control plane: PATCH /_sim/stores/{prefix}/adjustment-reasons/{id} `{enabled}`. */
export function setReasonEnabled(world: World, prefix: string, id: string, enabled: boolean) {
  const store = findStore(world, prefix);
  if (!store.ok) return store;
  const row = store.value.reasons.row(id);
  if (!row || row.deletedAt !== null) return fail(notFound("adjustment reason"));
  if (row.value.is_system && !enabled) return fail(apiError("CONFLICT", "The system reason cannot be disabled."));
  const next = row.value.enabled === enabled ? row : store.value.reasons.put(row.id, { ...row.value, enabled });
  return ok({ ...reasonView(next), enabled: next.value.enabled });
}

/** docs/interfaces.md, Control plane: GET /_sim/stores/{prefix}/stock/{product_id}/{outlet_id}: `{on_hand, average_cost}` (cents). */
export function stockView(
  world: World,
  prefix: string,
  productId: string,
  outletId: string,
): Result<{ on_hand: number; average_cost: number }, ApiError> {
  const store = findStore(world, prefix);
  if (!store.ok) return store;
  const product = store.value.catalog.products.row(productId);
  const outlet = store.value.outlets.row(outletId);
  if (!product || !outlet) return fail(notFound(product ? "outlet" : "product"));
  const level = store.value.inventory.level(product.id, outlet.id);
  return ok({ on_hand: fromMilli(level?.on_hand ?? 0), average_cost: level?.average_cost ?? 0 });
}

function saleContext(world: World, prefix: string) {
  const store = findStore(world, prefix);
  return store.ok ? ok({ store: store.value, ids: world.env.ids, now: world.env.clock.now() }) : store;
}

/** docs/interfaces.md, Control plane: POST /_sim/stores/{prefix}/sales: a completed sale (or a parked one) from lines. */
export function makeSale(world: World, prefix: string, body: SaleBody): Result<Sale, ApiError> {
  const ctx = saleContext(world, prefix);
  if (!ctx.ok) return ctx;
  const completedAt = body.completed_at === undefined ? undefined : parseUtcDateTime(body.completed_at);
  if (body.completed_at !== undefined && completedAt === undefined)
    return fail(invalid("completed_at", "must be a UTC date-time ending in Z"));
  const made = createSale(ctx.value, { ...body, completed_at: completedAt });
  return made.ok ? ok(saleView(made.value)) : made;
}

/** docs/interfaces.md, Control plane: POST /_sim/stores/{prefix}/sales/{id}/refunds: refund some lines, or the rest. */
export function makeRefund(world: World, prefix: string, saleId: string, body: RefundBody): Result<Sale, ApiError> {
  const ctx = saleContext(world, prefix);
  if (!ctx.ok) return ctx;
  const made = refundSale(ctx.value, saleId, body.lines);
  return made.ok ? ok(saleView(made.value)) : made;
}

/** docs/interfaces.md, Control plane: POST /_sim/stores/{prefix}/sales/{id}/void. */
export function makeVoid(world: World, prefix: string, saleId: string): Result<Sale, ApiError> {
  const ctx = saleContext(world, prefix);
  if (!ctx.ok) return ctx;
  const made = voidSale(ctx.value, saleId);
  return made.ok ? ok(saleView(made.value)) : made;
}

/** The stored customer document, deleted ones included (with `deleted_at`): erasure is visible only here. */
export function storedCustomer(
  world: World,
  prefix: string,
  id: string,
): Result<Omit<Customer, "deleted_at"> & { deleted_at: string | null }, ApiError> {
  const store = findStore(world, prefix);
  if (!store.ok) return store;
  const row = store.value.customers.customers.row(id);
  return row
    ? ok({ ...customerView(row), deleted_at: row.deletedAt === null ? null : iso(row.deletedAt) })
    : fail(notFound("customer"));
}

/** docs/interfaces.md, Control plane: POST /_sim/oauth/authorize: what the consent screen would redirect to, headlessly. */
export function authorizeHeadless(world: World, body: AuthorizeBody): Result<{ redirect_to: string }, ApiError> {
  const user = world.users.find((u) => u.id === body.user_id.toLowerCase());
  if (!user) return fail(invalid("user_id", "is not a user of the simulator"));
  const { user_id: _user, decision, ...params } = body;
  const checked = checkAuthorize(world, { response_type: "code", ...params });
  if (checked.kind === "page_error")
    return fail(
      invalid(
        params.client_id === undefined || !world.oauthClients.some((c) => c.clientId === params.client_id)
          ? "client_id"
          : "redirect_uri",
        checked.message,
      ),
    );
  if (checked.kind === "redirect") return ok({ redirect_to: checked.to });
  const refusal = userRefusal(world, user);
  if (refusal) return fail(apiError("VALIDATION_FAILED", refusal, [{ field: "user_id", message: refusal }]));
  return ok({ redirect_to: decide(world, checked, user, decision === "allow") });
}

export const clientView = (c: OAuthClientRecord) => ({
  client_id: c.clientId,
  client_secret: c.clientSecret,
  name: c.name,
  redirect_uris: [...c.redirectUris],
});

/** Registration of OAuth clients is manual (spec, Authentication 8): here, through the control plane. */
export function registerClient(world: World, body: ClientBody) {
  const client = {
    clientId: `rsc_${world.secrets.token(24)}`,
    clientSecret: `rss_${world.secrets.token(40)}`,
    name: body.name,
    redirectUris: [...body.redirect_uris],
  };
  world.oauthClients.push(client);
  return clientView(client);
}

export const connectionView = (c: Connection, now: number) => ({
  id: c.id,
  client_id: c.clientId,
  user_id: c.userId,
  store_prefix: c.storePrefix,
  scopes: [...c.scopes],
  state: stateAt(c, now),
  created_at: iso(c.createdAt),
  last_used_at: c.lastUsedAt === null ? null : iso(c.lastUsedAt),
});

/** Spec, States: a store admin disconnects a connection; apps using it stop immediately. */
export function disconnect(world: World, id: string): Result<{ id: string; state: "revoked" }, ApiError> {
  const connection = world.oauth.connections.get(id.toLowerCase());
  if (!connection) return fail(notFound("connection"));
  connection.state = "revoked";
  return ok({ id: connection.id, state: "revoked" });
}
