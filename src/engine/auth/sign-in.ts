import { sha256 } from "../../kernel/digest.js";
import { POLICIES, retryAfterSeconds, type RateLimiter } from "../limits.js";
import type { UserRecord } from "./accounts.js";

// Spec, Authentication 3: the merchant signs in on the consent screen. Failed sign-ins are limited
// like failed authentication (docs/spec-choices.md, OAuth): per network address, and per account as
// typed (any email, known or not, so the limit tells nothing about which accounts exist). A sign-in
// under a full window is refused before the password is looked at, a right one included.

export type SignIn =
  | { readonly ok: true; readonly user: UserRecord }
  | { readonly ok: false; readonly status: 401 | 429; readonly message: string; readonly retryAfter?: number };

export interface SignInContext {
  readonly users: readonly UserRecord[];
  readonly limits: RateLimiter;
}

export function signIn(
  ctx: SignInContext,
  email: string,
  password: string | null,
  address: string,
  now: number,
): SignIn {
  const typed = email.trim().toLowerCase();
  // The account's window is keyed by a digest: what is typed may be long.
  const account = sha256(typed);
  const windows = [
    ctx.limits.peek(POLICIES.signInAddress, address, now),
    ctx.limits.peek(POLICIES.signInAccount, account, now),
  ];
  const full = windows.find((w) => w.used >= w.policy.limit);
  if (full) {
    const retryAfter = retryAfterSeconds(full);
    const minutes = Math.ceil(retryAfter / 60);
    return {
      ok: false,
      status: 429,
      message: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      retryAfter,
    };
  }
  const user = ctx.users.find((u) => u.email.toLowerCase() === typed && u.password === password);
  if (user) return { ok: true, user };
  // Both charged to the address: typing many accounts fills its own windows, never another's.
  ctx.limits.hit(POLICIES.signInAddress, address, now, { address });
  ctx.limits.hit(POLICIES.signInAccount, account, now, { address });
  return { ok: false, status: 401, message: "The email or password is not right." };
}
