// Tests of the authorization step (retail-api-v1.md: Authentication 3; docs/spec-choices.md: OAuth):
// the control twin `POST /_sim/oauth/authorize` and the consent screen `GET {auth_url}/oauth/authorize`,
// driven without JavaScript by posting its forms. Written from the spec; the simulator is under test.
import { describe, expect, it } from "vitest";
import { makeSim } from "../../test-support/sim.js";
import {
  authorizeHeadless,
  connect,
  control,
  exchange,
  fixture,
  forms,
  getAuthorizePage,
  pkcePair,
  sortedScopes,
  submit,
  tags,
  type Fixture,
  type Form,
  type PageReply,
} from "../../test-support/oauth.js";
import { expectError } from "../../test-support/errors.js";

const redirectTarget = (url: URL) => `${url.origin}${url.pathname}`;

function headlessBody(fx: Fixture, over: Record<string, string> = {}) {
  return {
    user_id: fx.admin.id,
    client_id: fx.client.client_id,
    redirect_uri: fx.redirectUri,
    scope: "catalog:read",
    state: "xyz-123",
    decision: "allow" as const,
    ...over,
  };
}

/** A redirect_to (or Location) carrying `error` and the echoed state, to the registered redirect URI, and no code. */
function expectErrorRedirect(to: string, redirectUri: string, error: string, state: string): void {
  const url = new URL(to);
  expect(redirectTarget(url)).toBe(redirectUri);
  expect(url.searchParams.get("error")).toBe(error);
  expect(url.searchParams.get("state")).toBe(state);
  expect(url.searchParams.has("code")).toBe(false);
}

describe("Spec, Authentication 3 step 2 (control twin POST /_sim/oauth/authorize): allow and cancel", () => {
  it("allow answers {redirect_to} to the redirect URI carrying code and the echoed state", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const r = await authorizeHeadless(sim, headlessBody(fx));
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(["redirect_to"]);
    const url = new URL(r.json.redirect_to);
    expect(redirectTarget(url)).toBe(fx.redirectUri);
    expect([...url.searchParams.keys()].sort()).toEqual(["code", "state"]);
    expect(url.searchParams.get("state")).toBe("xyz-123");
    expect((url.searchParams.get("code") ?? "").length).toBeGreaterThan(0);
  });

  it("a state with spaces, & and = and non-ASCII comes back exactly", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const state = "a b&c=d/é?#+%";
    const r = await authorizeHeadless(sim, headlessBody(fx, { state }));
    expect(new URL(r.json.redirect_to).searchParams.get("state")).toBe(state);
  });

  it("the redirect goes to the other registered redirect URI when that one is asked for", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const other = fx.client.redirect_uris[1] as string;
    const r = await authorizeHeadless(sim, headlessBody(fx, { redirect_uri: other }));
    expect(redirectTarget(new URL(r.json.redirect_to))).toBe(other);
  });

  it("cancel answers {redirect_to} carrying error=access_denied and the echoed state, no code", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const r = await authorizeHeadless(sim, headlessBody(fx, { decision: "cancel" }));
    expect(r.status).toBe(200);
    expectErrorRedirect(r.json.redirect_to, fx.redirectUri, "access_denied", "xyz-123");
  });
});

describe("Spec, Authentication 3 (choice: never redirect to an unverified address): bad client_id or redirect_uri answers 400, no redirect_to", () => {
  it("an unknown client_id answers 400 naming client_id", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expectError(
      await authorizeHeadless(sim, headlessBody(fx, { client_id: "rsc_unknown" })),
      400,
      "VALIDATION_FAILED",
      { includes: "client_id" },
    );
  });

  it.each([
    ["an unregistered URI", "https://evil.example/callback"],
    ["a registered URI with a trailing slash", "http://localhost:8976/callback/"],
    ["a registered URI with a query added", "http://localhost:8976/callback?x=1"],
    ["a registered URI with another port", "http://localhost:8977/callback"],
  ])("redirect_uri %s answers 400 naming redirect_uri", async (_what, uri) => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expectError(await authorizeHeadless(sim, headlessBody(fx, { redirect_uri: uri })), 400, "VALIDATION_FAILED", {
      includes: "redirect_uri",
    });
  });

  it("an unregistered redirect_uri with a bad scope still answers 400, not an error redirect", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expectError(
      await authorizeHeadless(sim, headlessBody(fx, { redirect_uri: "https://evil.example/cb", scope: "nope" })),
      400,
      "VALIDATION_FAILED",
      { includes: "redirect_uri" },
    );
  });
});

describe("Spec, Authentication 3 (choice: other bad requests redirect with error and state)", () => {
  it.each(["token", "id_token", "code token"])(
    "response_type=%s redirects with error=unsupported_response_type and the state",
    async (responseType) => {
      const sim = makeSim();
      const fx = await fixture(sim);
      const r = await authorizeHeadless(sim, headlessBody(fx, { response_type: responseType }));
      expect(r.status).toBe(200);
      expectErrorRedirect(r.json.redirect_to, fx.redirectUri, "unsupported_response_type", "xyz-123");
    },
  );

  it.each([
    ["an unknown scope", "catalog:read bogus:read"],
    ["sales:write (no such scope)", "sales:write"],
    ["an empty scope", ""],
    ["a scope in other case", "CATALOG:READ"],
    ["a comma-separated list", "catalog:read,sales:read"],
  ])("%s redirects with error=invalid_scope and the state", async (_what, scope) => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const r = await authorizeHeadless(sim, headlessBody(fx, { scope }));
    expect(r.status).toBe(200);
    expectErrorRedirect(r.json.redirect_to, fx.redirectUri, "invalid_scope", "xyz-123");
  });

  it("code_challenge_method=plain redirects with error=invalid_request (S256 only)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const r = await authorizeHeadless(
      sim,
      headlessBody(fx, { code_challenge: pkcePair().challenge, code_challenge_method: "plain" }),
    );
    expectErrorRedirect(r.json.redirect_to, fx.redirectUri, "invalid_request", "xyz-123");
  });

  it("a code_challenge without code_challenge_method redirects with error=invalid_request (recorded choice)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const r = await authorizeHeadless(sim, headlessBody(fx, { code_challenge: pkcePair().challenge }));
    expectErrorRedirect(r.json.redirect_to, fx.redirectUri, "invalid_request", "xyz-123");
  });

  it("code_challenge_method=S256 with a challenge gives a code", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const r = await authorizeHeadless(
      sim,
      headlessBody(fx, { code_challenge: pkcePair().challenge, code_challenge_method: "S256" }),
    );
    expect(new URL(r.json.redirect_to).searchParams.has("code")).toBe(true);
  });
});

describe("Spec, Authentication 3: scope is space or plus separated", () => {
  it.each([
    ["spaces", "catalog:write sales:read"],
    ["plus signs", "catalog:write+sales:read"],
  ])("scope separated by %s grants those scopes (plus the implied read scope)", async (_what, scope) => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const r = await authorizeHeadless(sim, headlessBody(fx, { scope }));
    const code = new URL(r.json.redirect_to).searchParams.get("code") as string;
    const json = await exchange(sim, fx, code);
    expect(sortedScopes(json.scope)).toEqual(["catalog:read", "catalog:write", "sales:read"]);
  });

  it("a plus in the query string of GET /oauth/authorize (scope=a+b, which decodes to a space) is accepted too", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const res = await sim.fetch(
      `http://sim.test/oauth/authorize?response_type=code&client_id=${fx.client.client_id}&redirect_uri=${encodeURIComponent(fx.redirectUri)}&scope=catalog:write+sales:read&state=s`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(200);
  });

  it("an encoded plus (%2B) in the query string is accepted as a separator", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const res = await sim.fetch(
      `http://sim.test/oauth/authorize?response_type=code&client_id=${fx.client.client_id}&redirect_uri=${encodeURIComponent(fx.redirectUri)}&scope=catalog:write%2Bsales:read&state=s`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(200);
  });
});

describe("Spec, Authentication 3: only store admins on the Growth plan can connect (control twin: 400 naming user_id)", () => {
  it("a non-admin user (staff@demo.example) answers 400 naming user_id", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expect(fx.staff.role).not.toBe("admin");
    expectError(await authorizeHeadless(sim, headlessBody(fx, { user_id: fx.staff.id })), 400, "VALIDATION_FAILED", {
      includes: "user_id",
    });
  });

  it("the admin of the Lite-plan store (admin@lite.example) answers 400 naming user_id", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expect([fx.liteAdmin.role, fx.liteAdmin.plan]).toEqual(["admin", "lite"]);
    expectError(
      await authorizeHeadless(sim, headlessBody(fx, { user_id: fx.liteAdmin.id })),
      400,
      "VALIDATION_FAILED",
      { includes: "user_id" },
    );
  });

  it("an unknown user_id answers 400 naming user_id", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expectError(
      await authorizeHeadless(sim, headlessBody(fx, { user_id: "00000000-0000-4000-8000-000000000000" })),
      400,
      "VALIDATION_FAILED",
      { includes: "user_id" },
    );
  });
});

// ---- The consent screen: GET {auth_url}/oauth/authorize and its forms ------------------------------

function query(fx: Fixture, over: Record<string, string> = {}): Record<string, string> {
  return {
    response_type: "code",
    client_id: fx.client.client_id,
    redirect_uri: fx.redirectUri,
    scope: "catalog:write sales:read",
    state: "st-9",
    ...over,
  };
}

/** Accessible basics: lang, a title, one h1, and a label bound by for/id to every visible input. */
function expectAccessiblePage(page: PageReply): void {
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  expect(page.html).toMatch(/<html\b[^>]*\blang="en"/i);
  expect(page.html).toMatch(/<title>[^<]*\S[^<]*<\/title>/i);
  expect(tags(page.html, "h1")).toHaveLength(1);
  const labelsFor = tags(page.html, "label").map((l) => l.for);
  for (const input of tags(page.html, "input").filter((i) => (i.type ?? "text").toLowerCase() !== "hidden")) {
    expect(input.id, `input ${input.name} has an id`).toBeTruthy();
    expect(labelsFor, `a label is bound to #${input.id}`).toContain(input.id);
  }
}

function signInForm(page: PageReply): Form {
  const form = forms(page.html).find((f) => f.inputs.some((i) => i.type === "password"));
  if (!form) throw new Error(`no sign-in form in:\n${page.html}`);
  return form;
}

function consentForm(page: PageReply): Form {
  const form = forms(page.html).find((f) => f.buttons.some((b) => b.name === "decision"));
  if (!form) throw new Error(`no consent form in:\n${page.html}`);
  return form;
}

const emailField = (form: Form) => form.inputs.find((i) => i.type === "email")?.name ?? "email";
const passwordField = (form: Form) => form.inputs.find((i) => i.type === "password")?.name ?? "password";

async function signIn(
  sim: ReturnType<typeof makeSim>,
  page: PageReply,
  email: string,
  password: string,
): Promise<PageReply> {
  const form = signInForm(page);
  return submit(sim, form, [
    [emailField(form), email],
    [passwordField(form), password],
  ]);
}

async function decide(
  sim: ReturnType<typeof makeSim>,
  page: PageReply,
  decision: "allow" | "cancel",
): Promise<PageReply> {
  const form = consentForm(page);
  const button = form.buttons.find((b) => b.name === "decision" && b.value === decision);
  if (!button) throw new Error(`no ${decision} button`);
  return submit(sim, form, [[button.name, button.value]]);
}

describe("Spec, Authentication 3 step 1: GET {auth_url}/oauth/authorize", () => {
  it("a valid request answers 200 with an HTML sign-in form (email and password)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const page = await getAuthorizePage(sim, query(fx));
    expect(page.status).toBe(200);
    expect(page.headers.get("location")).toBeNull();
    const form = signInForm(page);
    expect(form.method).toBe("post");
    expect(form.inputs.some((i) => i.type === "email")).toBe(true);
    expectAccessiblePage(page);
  });

  it("an unknown client_id answers a 400 HTML error page and no Location header", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const page = await getAuthorizePage(sim, query(fx, { client_id: "rsc_unknown" }));
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    expect(forms(page.html)).toHaveLength(0);
    expectAccessiblePage(page);
  });

  it("an unregistered redirect_uri answers a 400 HTML error page and no Location header, even with a bad scope", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const cases: Record<string, string>[] = [
      { redirect_uri: "https://evil.example/cb" },
      { redirect_uri: "https://evil.example/cb", scope: "nope" },
    ];
    for (const over of cases) {
      const page = await getAuthorizePage(sim, query(fx, over));
      expect(page.status).toBe(400);
      expect(page.headers.get("location")).toBeNull();
      expect(page.html).not.toContain("evil.example/cb?");
      expectAccessiblePage(page);
    }
  });

  it("a missing redirect_uri answers a 400 HTML error page and no Location header", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const q = query(fx);
    delete q.redirect_uri;
    const page = await getAuthorizePage(sim, q);
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
  });

  it("an unknown scope answers 302 to the redirect URI with error=invalid_scope and the state", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const page = await getAuthorizePage(sim, query(fx, { scope: "catalog:read nope:read" }));
    expect(page.status).toBe(302);
    expectErrorRedirect(page.headers.get("location") as string, fx.redirectUri, "invalid_scope", "st-9");
  });

  it("response_type=token answers 302 with error=unsupported_response_type and the state", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const page = await getAuthorizePage(sim, query(fx, { response_type: "token" }));
    expect(page.status).toBe(302);
    expectErrorRedirect(page.headers.get("location") as string, fx.redirectUri, "unsupported_response_type", "st-9");
  });

  it("code_challenge_method=plain answers 302 with error=invalid_request and the state", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const page = await getAuthorizePage(
      sim,
      query(fx, { code_challenge: pkcePair().challenge, code_challenge_method: "plain" }),
    );
    expect(page.status).toBe(302);
    expectErrorRedirect(page.headers.get("location") as string, fx.redirectUri, "invalid_request", "st-9");
  });

  it("a state containing <script> is escaped in the HTML", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const state = `"><script>alert(1)</script>`;
    const page = await getAuthorizePage(sim, query(fx, { state }));
    expect(page.status).toBe(200);
    expect(page.html).not.toContain("<script>alert(1)</script>");
    expect(page.html).not.toMatch(/<script\b/i);
    expect(page.html).toContain("&lt;script&gt;");
    // The hidden field carries the exact state back.
    expect(signInForm(page).hidden).toContainEqual(["state", state]);
  });
});

describe("Spec, Authentication 3 step 2: the no-JavaScript consent flow (sign in, consent, decision)", () => {
  it("a wrong password answers 401 with the sign-in page and an error message", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const page = await signIn(sim, await getAuthorizePage(sim, query(fx)), fx.admin.email, "not-the-password");
    expect(page.status).toBe(401);
    expect(page.headers.get("location")).toBeNull();
    expect(page.html).toMatch(/role="alert"/);
    signInForm(page);
    expectAccessiblePage(page);
  });

  it("an unknown email answers 401 with the sign-in page", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const page = await signIn(sim, await getAuthorizePage(sim, query(fx)), "nobody@demo.example", fx.admin.password);
    expect(page.status).toBe(401);
    signInForm(page);
  });

  it("the store admin signs in and sees the consent page listing the asked scopes, with Allow and Cancel", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const page = await signIn(
      sim,
      await getAuthorizePage(sim, query(fx, { scope: "catalog:write sales:read" })),
      fx.admin.email,
      fx.admin.password,
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain("catalog:write");
    expect(page.html).toContain("sales:read");
    expect(page.html).not.toContain("customers:read");
    expect(page.html).toContain(fx.client.name);
    expect(
      consentForm(page)
        .buttons.map((b) => b.value)
        .sort(),
    ).toEqual(["allow", "cancel"]);
    expectAccessiblePage(page);
  });

  it("decision=allow answers 302 to the redirect URI with code and the state, and the code exchanges for the asked scopes", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const consent = await signIn(sim, await getAuthorizePage(sim, query(fx)), fx.admin.email, fx.admin.password);
    const done = await decide(sim, consent, "allow");
    expect(done.status).toBe(302);
    const url = new URL(done.headers.get("location") as string);
    expect(redirectTarget(url)).toBe(fx.redirectUri);
    expect([...url.searchParams.keys()].sort()).toEqual(["code", "state"]);
    expect(url.searchParams.get("state")).toBe("st-9");
    const json = await exchange(sim, fx, url.searchParams.get("code") as string);
    expect(sortedScopes(json.scope)).toEqual(["catalog:read", "catalog:write", "sales:read"]);
  });

  it("decision=cancel answers 302 to the redirect URI with error=access_denied and the state", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const consent = await signIn(sim, await getAuthorizePage(sim, query(fx)), fx.admin.email, fx.admin.password);
    const done = await decide(sim, consent, "cancel");
    expect(done.status).toBe(302);
    expectErrorRedirect(done.headers.get("location") as string, fx.redirectUri, "access_denied", "st-9");
  });

  it("the PKCE challenge is carried through the forms: the code needs the verifier", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { verifier, challenge } = pkcePair();
    const consent = await signIn(
      sim,
      await getAuthorizePage(sim, query(fx, { code_challenge: challenge, code_challenge_method: "S256" })),
      fx.admin.email,
      fx.admin.password,
    );
    const done = await decide(sim, consent, "allow");
    const code = new URL(done.headers.get("location") as string).searchParams.get("code") as string;
    await expect(exchange(sim, fx, code)).rejects.toThrow(/400/);
    const sim2 = makeSim();
    const fx2 = await fixture(sim2);
    const consent2 = await signIn(
      sim2,
      await getAuthorizePage(sim2, query(fx2, { code_challenge: challenge, code_challenge_method: "S256" })),
      fx2.admin.email,
      fx2.admin.password,
    );
    const code2 = new URL((await decide(sim2, consent2, "allow")).headers.get("location") as string).searchParams.get(
      "code",
    ) as string;
    expect((await exchange(sim2, fx2, code2, { code_verifier: verifier })).token_type).toBe("Bearer");
  });

  it("a state containing <script> is escaped on the consent page and comes back exactly in the redirect", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const state = `<script>alert("x")</script>&'`;
    const consent = await signIn(
      sim,
      await getAuthorizePage(sim, query(fx, { state })),
      fx.admin.email,
      fx.admin.password,
    );
    expect(consent.status).toBe(200);
    expect(consent.html).not.toMatch(/<script\b/i);
    const done = await decide(sim, consent, "allow");
    expect(new URL(done.headers.get("location") as string).searchParams.get("state")).toBe(state);
  });

  it.each([
    ["staff@demo.example (not an admin)", "staff"],
    ["admin@lite.example (store on the Lite plan)", "liteAdmin"],
  ] as const)("%s signs in and sees a 403 refusal page with no consent form and no redirect", async (_who, key) => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const user = fx[key];
    const page = await signIn(sim, await getAuthorizePage(sim, query(fx)), user.email, user.password);
    expect(page.status).toBe(403);
    expect(page.headers.get("location")).toBeNull();
    expect(forms(page.html).some((f) => f.buttons.some((b) => b.name === "decision"))).toBe(false);
    expect(page.html).not.toContain("code=");
    expectAccessiblePage(page);
  });
});

describe("RFC 6749 4.1.2.1 and the recorded choices: details of the authorization request", () => {
  it("a missing response_type redirects with invalid_request and the state", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { response_type: _omitted, ...rest } = query(fx);
    const page = await getAuthorizePage(sim, rest);
    expect(page.status).toBe(302);
    const to = new URL(page.headers.get("location") as string);
    expect(to.searchParams.get("error")).toBe("invalid_request");
    expect(to.searchParams.get("state")).toBe("st-9");
  });

  it("Choices (the decision applies to the request shown): a scope edited in the posted consent form is not granted", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const signedIn = await signIn(
      sim,
      await getAuthorizePage(sim, query(fx, { scope: "sales:read" })),
      "admin@demo.example",
      "retail-sim",
    );
    const form = consentForm(signedIn);
    const tampered = {
      ...form,
      inputs: form.inputs.map((i) => (i.name === "scope" ? { ...i, value: "catalog:write customers:write" } : i)),
    };
    const button = form.buttons.find((b) => b.value === "allow")!;
    const done = await submit(sim, tampered, [[button.name, button.value]]);
    const code = new URL(done.headers.get("location") as string).searchParams.get("code") as string;
    const tokens = await exchange(sim, fx, code);
    expect(tokens.scope).toBe("sales:read");
  });
});

describe("Spec, States (Credential): expiry is a state, seen by the control plane before the next use", () => {
  it("a connection idle over 90 days shows expired in GET /_sim/connections; a key likewise in /_sim/credentials", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    await connect(sim, fx);
    sim.clock.advance(90 * 86_400 + 1);
    const connections = await control(sim, "GET", "/_sim/connections");
    expect(connections.json.map((c: { state: string }) => c.state)).toEqual(["expired"]);
    expect(sim.credentials().stores[0]!.keys.map((k) => k.state)).toEqual(Array(10).fill("expired"));
  });
});
