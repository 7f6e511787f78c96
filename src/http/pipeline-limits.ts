import { apiError, type ApiError } from "../contract/errors.js";
import {
  POLICIES,
  policyHeader,
  rateLimitHeader,
  retryAfterSeconds,
  type Payer,
  type Policy,
  type WindowState,
} from "../engine/limits.js";
import type { World } from "../engine/world.js";
import { errorResponse } from "./respond.js";
import type { SimRequest, SimResponse } from "./types.js";

// The pipeline's rate-limit steps (spec, Limits): counting a request in a further limit, the
// failed-authentication windows, the 429 answer and the RateLimit headers every response carries.

/** What the limit steps read and record of a request in the pipeline. */
export interface LimitCounter {
  readonly world: World;
  readonly req: SimRequest;
  readonly now: number;
  /** The failed-authentication window key: the address and the credential presented. */
  readonly pairKey: string;
  /** Who pays for that window: the address, or the credential presented once the sandbox knows it. */
  pairPayer: Payer;
  /** The rate-limit windows this request was counted in; the headers report them. */
  readonly windows: WindowState[];
  /** Set when a further limit refused the request. */
  limited: boolean;
}

/** The rule branch of a further limit's 429 (contract/coverage-branches.ts). */
const LIMIT_BRANCH: Readonly<Record<string, string>> = {
  customers: "limits.customers-429",
  "image-writes": "limits.image-writes",
};

/** Counts the request in a further limit, or answers the 429 when the limit is reached. Both show in the headers. */
export function countOrRefuse(caller: LimitCounter, policy: Policy, key: string): ApiError | undefined {
  const state = caller.world.limits.peek(policy, key, caller.now);
  // rule limits.customers-429: a further limit reached (customer endpoints, 30 a minute) is 429 RATE_LIMITED.
  if (state.used >= policy.limit) {
    caller.windows.push(state);
    caller.limited = true;
    return {
      ...apiError(
        "RATE_LIMITED",
        `Rate limit exceeded: ${policy.limit} ${policy.name} requests per minute per credential.`,
      ),
      retryAfter: retryAfterSeconds(state),
      branch: LIMIT_BRANCH[policy.name],
    };
  }
  caller.windows.push(caller.world.limits.hit(policy, key, caller.now, { credential: key }));
  return undefined;
}

/** 401, 402 and 403 count toward the failed-authentication limits (spec, Limits). */
export function recordFailure(caller: LimitCounter, response: SimResponse): SimResponse {
  const address = caller.req.remoteAddress;
  caller.world.limits.hit(POLICIES.failedAddress, address, caller.now, { address });
  caller.world.limits.hit(POLICIES.failedPair, caller.pairKey, caller.now, caller.pairPayer);
  return response;
}

/** An unauthenticated refusal carries the failed-authentication window in its rate-limit headers. */
export function failedAuth(caller: LimitCounter, error: ApiError): SimResponse {
  const response = recordFailure(caller, errorResponse(error));
  return withLimitHeaders(response, caller.world.limits.peek(POLICIES.failedPair, caller.pairKey, caller.now));
}

/** A 429 for the first window; the headers report every window given. */
export function tooMany(message: string, window: WindowState, ...others: WindowState[]): SimResponse {
  const response = errorResponse(apiError("RATE_LIMITED", message), {
    "retry-after": String(retryAfterSeconds(window)),
  });
  return withLimitHeaders(response, window, ...others);
}

/** rule limits.headers: every response carries RateLimit-Policy (each limit it was counted in) and RateLimit (the nearest to exhaustion). */
export function withLimitHeaders(response: SimResponse, ...windows: WindowState[]): SimResponse {
  const remaining = (w: WindowState) => w.policy.limit - w.used;
  const nearest = windows.reduce((a, b) =>
    remaining(b) < remaining(a) || (remaining(b) === remaining(a) && b.resetMs > a.resetMs) ? b : a,
  );
  response.headers["ratelimit-policy"] = windows.map((w) => policyHeader(w.policy)).join(", ");
  response.headers["ratelimit"] = rateLimitHeader(nearest);
  return response;
}
