// Path templates of the operation tables (`/products/{id}/inventory/{outlet_id}`): the names of
// their parameters, as values for the router and the OpenAPI builder, and as types for handlers.

/** The OAuth document's address, relative to `{api_root}`. */
export const OAUTH_DOCUMENT_PATH = "/oauth/openapi.json";

/** The parameter names of a path template, as a union: `"id" | "outlet_id"`. */
export type PathParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

/** The parameters a route match gives a handler: one string per `{name}` of the template, nothing else. */
export type PathParams<Path extends string> = { readonly [Name in PathParamNames<Path>]: string };

/** Parameter names, in order: `/products/{id}/inventory/{outlet_id}` gives `["id", "outlet_id"]`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
}

/** A path segment as sent, percent-decoded (a malformed escape is kept as it was). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
