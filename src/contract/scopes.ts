// Scopes of the spec's Authentication section. A `:write` scope satisfies the matching `:read`.

export const SCOPES = [
  "catalog:read",
  "catalog:write",
  "inventory:read",
  "inventory:write",
  "customers:read",
  "customers:write",
  "sales:read",
] as const;

export type Scope = (typeof SCOPES)[number];

/** What each scope grants, in words (spec, Scopes table): shown on the consent page and in the OpenAPI document. */
export const SCOPE_TEXT: Record<Scope, string> = {
  "catalog:read": "View products, prices, categories, brands, tags and suppliers",
  "catalog:write": "Create, update and delete products, prices, categories, brands, tags and suppliers",
  "inventory:read": "View stock levels",
  "inventory:write": "Adjust stock",
  "customers:read": "View customers",
  "customers:write": "Create and update customers, and permanently erase personal details",
  "sales:read": "View sales and refunds",
};

export function isScope(text: string): text is Scope {
  return (SCOPES as readonly string[]).includes(text);
}

/** rule scopes.me-lists-scopes: ticking a write scope also ticks its read scope (GET /me lists both). Returned in catalog order. */
export function normalizeScopes(scopes: Iterable<Scope>): Scope[] {
  const set = new Set<Scope>(scopes);
  for (const scope of [...set]) {
    if (scope.endsWith(":write")) set.add(scope.replace(":write", ":read") as Scope);
  }
  return SCOPES.filter((s) => set.has(s));
}

/** rule scopes.write-satisfies-read: a `:write` scope satisfies the matching `:read`. */
export function grants(granted: readonly Scope[], needed: Scope): boolean {
  if (granted.includes(needed)) return true;
  return needed.endsWith(":read") && granted.includes(needed.replace(":read", ":write") as Scope);
}
