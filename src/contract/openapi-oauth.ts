import { type OperationExamples, operationExamples, withExamples } from "./openapi-examples.js";
import { HEADERS, INFO, RATE_HEADERS, RETRY_AFTER } from "./openapi-parts.js";

// The OpenAPI 3.1 document of the OAuth token endpoint (spec, Authentication 3 to 8). It has its own
// document because the endpoint lives at `{api_root}/oauth/token`, outside every store's `{base_url}`,
// and client generators honour only a document's own `servers`, never a path's.

/** The token endpoint, relative to `{api_root}`. */
export const TOKEN_PATH = "/oauth/token";

const OAUTH_ERROR = {
  type: "object",
  description: "Spec, Authentication 8: token endpoint errors use the OAuth shape, not the standard envelope.",
  required: ["error", "error_description"],
  additionalProperties: false,
  properties: {
    error: { type: "string", enum: ["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type"] },
    error_description: { type: "string" },
  },
};

const TOKEN_RESPONSE = {
  type: "object",
  description: "Spec, Authentication 6.",
  required: ["access_token", "refresh_token", "token_type", "expires_in", "scope", "store_name", "api_base_url"],
  additionalProperties: false,
  properties: {
    access_token: { type: "string", description: "Send it as `Authorization: Bearer <access_token>`." },
    refresh_token: { type: "string", description: "Does not rotate: refreshing answers the same one." },
    token_type: { type: "string", enum: ["Bearer"] },
    expires_in: { type: "integer", enum: [3600], description: "Seconds: an access token lasts 1 hour." },
    scope: { type: "string", description: "Granted scopes, space separated." },
    store_name: { type: "string" },
    api_base_url: { type: "string", format: "uri", description: "The store's `{base_url}`, for every API call." },
  },
};

const TOKEN_REQUEST = {
  type: "object",
  description:
    "Form fields. Authenticate the client with HTTP Basic (`clientBasic`) or with `client_id` and " +
    "`client_secret` here, never both.",
  required: ["grant_type"],
  properties: {
    grant_type: { type: "string", enum: ["authorization_code", "refresh_token"] },
    code: { type: "string", description: "With grant_type=authorization_code: the code the redirect carried." },
    redirect_uri: { type: "string", description: "With grant_type=authorization_code: as sent to authorize." },
    code_verifier: { type: "string", description: "When the authorization used PKCE (S256)." },
    refresh_token: { type: "string", description: "With grant_type=refresh_token." },
    client_id: { type: "string" },
    client_secret: { type: "string" },
  },
};

const oauthError = (
  examples: OperationExamples,
  status: number,
  description: string,
  extra: Record<string, unknown> = {},
) => ({
  description,
  headers: { ...RATE_HEADERS, ...extra },
  content: {
    "application/json": withExamples(
      { schema: { $ref: "#/components/schemas/OAuthError" } },
      examples.response(status),
    ),
  },
});

const cache = new Map<string, unknown>();

/** The token endpoint's document; `apiRoot` is `{api_root}`, its server. */
export function buildOAuthOpenApi(apiRoot: string): unknown {
  const cached = cache.get(apiRoot);
  if (cached) return cached;
  const examples = operationExamples("createToken", apiRoot);
  const doc = {
    openapi: "3.1.0",
    info: {
      ...INFO,
      title: `${INFO.title}: OAuth token endpoint`,
      description:
        "The token endpoint of the authorization code flow (spec, Authentication 3 to 8), at the API root: " +
        `every store's API is described at {base_url}/openapi.json. Merchants sign in at ${apiRoot}/oauth/authorize ` +
        "(a browser page, not described here).",
    },
    servers: [{ url: apiRoot, description: "The API root: the token endpoint has no store prefix." }],
    tags: [{ name: "OAuth", description: "The authorization code flow's token endpoint." }],
    paths: {
      [TOKEN_PATH]: {
        post: {
          operationId: "createToken",
          summary: "Exchange an authorization code or a refresh token for an access token",
          description: [
            'Spec, Authentication 3: "Step 3: `POST {api_root}/oauth/token` with form fields',
            '`grant_type=authorization_code`, `code`, `redirect_uri`, and `code_verifier` if PKCE was used."',
            'Spec, Authentication 7: "Refresh with `grant_type=refresh_token` and `refresh_token`. The refresh',
            'token does not rotate." Any other method answers 405 invalid_request.',
          ].join(" "),
          tags: ["OAuth"],
          security: [{ clientBasic: [] }, {}],
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": withExamples(
                { schema: { $ref: "#/components/schemas/TokenRequest" } },
                examples.requestBody,
              ),
            },
          },
          responses: {
            "200": {
              description: "Tokens.",
              headers: RATE_HEADERS,
              content: {
                "application/json": withExamples(
                  { schema: { $ref: "#/components/schemas/TokenResponse" } },
                  examples.response(200),
                ),
              },
            },
            "400": oauthError(
              examples,
              400,
              "invalid_request, invalid_grant (a wrong, expired or used code or token) or unsupported_grant_type.",
            ),
            "401": oauthError(examples, 401, "invalid_client: bad client credentials."),
            "429": oauthError(
              examples,
              429,
              "invalid_request: too many failures from this address (30 per 5 minutes).",
              RETRY_AFTER,
            ),
          },
        },
      },
    },
    components: {
      schemas: { OAuthError: OAUTH_ERROR, TokenRequest: TOKEN_REQUEST, TokenResponse: TOKEN_RESPONSE },
      securitySchemes: {
        clientBasic: {
          type: "http",
          scheme: "basic",
          description: "The OAuth client's client_id and client_secret as HTTP Basic credentials (RFC 6749 2.3.1).",
        },
      },
      headers: {
        RateLimit: HEADERS.RateLimit,
        RateLimitPolicy: HEADERS.RateLimitPolicy,
        RetryAfter: HEADERS.RetryAfter,
      },
    },
  };
  if (cache.size > 32) cache.clear();
  cache.set(apiRoot, doc);
  return doc;
}
