// The soak's OAuth operations (npm run soak), methods of Traffic (bench/soak-traffic.mjs):
// sign-ins through the consent page of {auth_url}/oauth/authorize and through POST /_sim/oauth/authorize,
// each with a large `state`, codes exchanged (first half only) or kept, and failed token exchanges from
// loopback addresses never used before.
import { FORM, form, JSON_TYPE, json } from "./soak-http.mjs";

const REDIRECT = "http://localhost:8976/callback";

export const oauthOperations = {
  async token_failure_new_address(n) {
    const body = form({
      grant_type: "authorization_code",
      code: `rsc_code_soak${n}`,
      redirect_uri: REDIRECT,
      client_id: this.client.client_id,
      client_secret: this.client.client_secret,
    });
    await this.fromNewAddress("token_failure_new_address", "POST", "/oauth/token", { headers: FORM, body });
  },

  // Sign-ins through the consent page, each with a large `state`.

  authorizeParams(n) {
    return {
      response_type: "code",
      client_id: this.client.client_id,
      redirect_uri: REDIRECT,
      scope: "catalog:read",
      state: `${n}-${this.stateFiller}`,
    };
  },

  /** Signs in on the consent page: the ticket it shows, or undefined. */
  async signIn(op, n) {
    const body = form({
      ...this.authorizeParams(n),
      step: "sign_in",
      email: this.user.email,
      password: this.user.password,
    });
    const res = await this.call(op, "POST", "/oauth/authorize", { headers: FORM, body, read: true });
    return res.status === 200 ? /name="ticket" value="([^"]+)"/.exec(res.text)?.[1] : undefined;
  },

  /** Answers the consent page: the code of the redirect, or undefined. */
  async decide(op, n, ticket, decision) {
    const body = form({ ...this.authorizeParams(n), step: "decide", ticket, decision });
    const res = await this.call(op, "POST", "/oauth/authorize", { headers: FORM, body });
    const location = res.headers.location;
    return res.status === 302 && location ? (new URL(location).searchParams.get("code") ?? undefined) : undefined;
  },

  async sign_in_abandoned(n) {
    await this.signIn("sign_in_abandoned", n);
  },

  async sign_in_allowed_code_kept(n) {
    const ticket = await this.signIn("sign_in_allowed", n);
    if (ticket) await this.decide("sign_in_allowed_decide", n, ticket, "allow");
  },

  async control_authorize(n) {
    const body = { ...this.authorizeParams(n), user_id: this.user.id, decision: "allow" };
    await this.call("control_authorize", "POST", "/_sim/oauth/authorize", { headers: JSON_TYPE, body: json(body) });
  },

  /** First half: sign-in, allow, code exchanged, the access token used (a connection made). Second half: cancelled. */
  async sign_in_exchange(n) {
    const ticket = await this.signIn("sign_in_exchange", n);
    if (!ticket) return;
    const code = await this.decide("sign_in_exchange_decide", n, ticket, this.secondHalf ? "cancel" : "allow");
    if (!code) return;
    const body = form({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: this.client.client_id,
      client_secret: this.client.client_secret,
    });
    const res = await this.call("token_exchange", "POST", "/oauth/token", { headers: FORM, body, read: true });
    if (res.status !== 200) return;
    const token = JSON.parse(res.text).access_token;
    await this.call("access_token_me", "GET", "/demo/v1/me", { headers: { authorization: `Bearer ${token}` } });
  },
};
