// docs/interfaces.md, Journal and coverage (Redaction): secrets and a customer's personal details never
// appear in `GET {control_url}/requests` nor in `requests.har`, however the client wrote them: a key
// without `Bearer`, in a query or another header; OAuth fields whose names are percent-encoded; JSON keys
// written with escapes, values of any type, a secret cut by the body cap; and none after an erasure.
import { describe, expect, it } from "vitest";
import { createSimulator } from "../index.js";
import { fixture, getAuthorizePage, getCode, pkcePair, submit, forms, token } from "../test-support/oauth.js";
import { UNREADABLE } from "./redact.js";

const NOW = "2026-01-01T00:00:00.000Z";
const ORIGIN = "http://sim";

/** The journal's two documents as text, to search whole. */
async function journalTexts(sim: ReturnType<typeof createSimulator>) {
  const page = await (await sim.fetch(`${ORIGIN}/_sim/requests`)).text();
  const har = await (await sim.fetch(`${ORIGIN}/_sim/requests.har`)).text();
  return { page, har, entries: JSON.parse(page).data as any[] };
}

const leaks = (text: string, secrets: Record<string, string>) =>
  Object.entries(secrets)
    .filter(([, secret]) => text.includes(secret))
    .map(([name]) => name);

describe("redaction works on what the server reads, whatever the spelling", () => {
  it("an API key sent without Bearer, in ?api_key= (percent-encoded too), in X-Api-Key, Api-Key or a cookie", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW });
    const key = sim.token("demo", "full");
    const me = (query: string, headers: Record<string, string>) =>
      sim.fetch(`${ORIGIN}/demo/v1/me${query}`, { headers });
    expect((await me("", { authorization: key })).status).toBe(401);
    expect((await me("", { authorization: `Token ${key}` })).status).toBe(401);
    expect((await me(`?api_key=${key}&limit=5`, {})).status).toBe(401);
    expect((await me(`?API%5Fkey=${key}`, {})).status).toBe(401);
    expect(
      (await me("", { "x-api-key": key, "api-key": key, cookie: `session=${key}`, "x-auth-token": key })).status,
    ).toBe(401);
    const { page, har, entries } = await journalTexts(sim);
    expect(leaks(page, { key })).toEqual([]);
    expect(leaks(har, { key })).toEqual([]);
    expect(entries.map((e) => e.request.headers.authorization)).toEqual([
      "[redacted]",
      "[redacted]",
      undefined,
      undefined,
      undefined,
    ]);
    expect(entries.map((e) => e.query)).toEqual(["", "", "api_key=[redacted]&limit=5", "API%5Fkey=[redacted]", ""]);
    const headers = entries[4].request.headers;
    expect([headers["x-api-key"], headers["api-key"], headers.cookie, headers["x-auth-token"]]).toEqual([
      "[redacted]",
      "[redacted]",
      "[redacted]",
      "[redacted]",
    ]);
  });

  it("OAuth code, code_verifier and client_secret under percent-encoded names (which the token endpoint reads) and a form type in capitals", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW });
    const fx = await fixture(sim);
    const { verifier, challenge } = pkcePair();
    const code = await getCode(sim, fx, { challenge });
    const body = [
      "grant_type=authorization_code",
      `cod%65=${code}`,
      `redirect_uri=${encodeURIComponent(fx.redirectUri)}`,
      `client_id=${fx.client.client_id}`,
      `client%5Fsecret=${fx.client.client_secret}`,
      `code%5fverifier=${verifier}`,
    ].join("&");
    const answer = await token(sim, [], { raw: body, contentType: "APPLICATION/X-WWW-FORM-URLENCODED; charset=UTF-8" });
    expect(answer.status).toBe(200);
    const { access_token, refresh_token } = answer.json;
    // The consent page's form, signed in through: the email, the password and the consent ticket.
    const page = await getAuthorizePage(sim, {
      response_type: "code",
      client_id: fx.client.client_id,
      redirect_uri: fx.redirectUri,
      scope: "catalog:read",
      state: "st-1",
    });
    const signIn = forms(page.html)[0];
    if (!signIn) throw new Error("no sign-in form");
    const consent = await submit(sim, signIn, [
      ["email", fx.admin.email],
      ["password", fx.admin.password],
    ]);
    expect(consent.status).toBe(200);
    const ticket = forms(consent.html)[0]?.hidden.find(([name]) => name === "ticket")?.[1] ?? "";
    expect(ticket).not.toBe("");
    const secrets = {
      code,
      verifier,
      client_secret: fx.client.client_secret,
      access_token,
      refresh_token,
      ticket,
    };
    const { page: journal, har, entries } = await journalTexts(sim);
    expect(leaks(journal, secrets)).toEqual([]);
    expect(leaks(har, secrets)).toEqual([]);
    expect(entries[0].request.body).toBe(
      `grant_type=authorization_code&cod%65=[redacted]&redirect_uri=${encodeURIComponent(fx.redirectUri)}&client_id=${fx.client.client_id}&client%5Fsecret=[redacted]&code%5fverifier=[redacted]`,
    );
    expect(JSON.parse(entries[0].response.body)).toMatchObject({
      access_token: "[redacted]",
      refresh_token: "[redacted]",
      token_type: "Bearer",
    });
    expect(entries.map((e) => [e.operation, e.status])).toEqual([
      ["createToken", 200],
      ["authorize", 200],
      ["authorize", 200],
    ]);
    // The password is the fixture's default, "retail-sim", which the HAR names as its creator.
    expect(entries[2].request.body).not.toContain(fx.admin.password);
    expect(entries[2].request.body).toContain("&email=[redacted]&password=[redacted]");
    // The pages are neither JSON nor a form: only their size is kept.
    expect(entries[2].response.body).toBe(UNREADABLE);
    expect(entries[2].response.body_bytes).toBe(Buffer.byteLength(consent.html));
  });

  it("a customer's details under escaped keys or in values of any type, a claimed JSON that is not, a secret cut by the cap; none after the erasure", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW });
    const key = sim.token("demo", "full");
    const send = (method: string, path: string, body?: string) =>
      sim.fetch(`${ORIGIN}/demo/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
      });
    const created = await send(
      "POST",
      "/customers",
      '{"first_name":"Qwertyfirst","last_n\\u0061me":"Zyxwvlast","\\u0065mail":"hidden.person@example.test"}',
    );
    expect(created.status).toBe(201);
    const customer = (
      (await created.json()) as { data: { id: string; last_name: string; email: string; customer_code: string } }
    ).data;
    expect([customer.last_name, customer.email]).toEqual(["Zyxwvlast", "hidden.person@example.test"]);
    const refused = [
      '{"first_name":"Qwertyfirst","email":["array.person@example.test"]}',
      '{"first_name":"Qwertyfirst","phone":{"number":"5550199887"}}',
      '{"first_name":"Qwertyfirst","tax_id":98765432123}',
      '{"first_name":"Brokenfirst","password":"pw-broken-123"',
    ];
    for (const body of refused) expect((await send("POST", "/customers", body)).status).toBe(400);
    // A product's body over the journal's 16 KiB cap, its secret past the cut.
    const long = `{"name":"Long one","retail_price":100,"client_secret":"${"S".repeat(20_000)}"}`;
    expect((await send("POST", "/products", long)).status).toBe(400);
    expect((await send("DELETE", `/customers/${customer.id}`)).status).toBe(204);
    const secrets = {
      first_name: "Qwertyfirst",
      last_name: "Zyxwvlast",
      email: "hidden.person",
      array: "array.person",
      phone: "5550199887",
      tax_id: "98765432123",
      broken: "Brokenfirst",
      password: "pw-broken-123",
      cut: "SSSSSSSSSS",
      code: customer.customer_code,
    };
    const { page, har, entries } = await journalTexts(sim);
    expect(leaks(page, secrets)).toEqual([]);
    expect(leaks(har, secrets)).toEqual([]);
    expect(entries.map((e) => e.request.body)).toEqual([
      '{"first_name":"[redacted]","last_name":"[redacted]","email":"[redacted]"}',
      '{"first_name":"[redacted]","email":"[redacted]"}',
      '{"first_name":"[redacted]","phone":"[redacted]"}',
      '{"first_name":"[redacted]","tax_id":"[redacted]"}',
      UNREADABLE,
      '{"name":"Long one","retail_price":100,"client_secret":"[redacted]"}',
      null,
    ]);
    expect(entries[5].request).toMatchObject({ body_bytes: long.length, truncated: true });
  });
});
