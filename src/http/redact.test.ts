// docs/interfaces.md, Journal and coverage (Redaction): which names are secrets or personal details, decided
// on each name as the server reads it, and how headers, queries, forms and JSON bodies keep the rest.
import { describe, expect, it } from "vitest";
import { PERSONAL_FIELDS } from "../contract/schemas/customers.js";
import { isRedacted, REDACTED, redactBody, redactForm, redactHeader, UNREADABLE } from "./redact.js";

describe("the names whose values are redacted", () => {
  it("are every credential-like name, OAuth's code and verifier, the consent ticket and each personal field of a customer", () => {
    const listed = [
      "authorization",
      "proxy-authorization",
      "x-api-key",
      "api-key",
      "apiKey",
      "api_key",
      "API_KEY",
      "cookie",
      "set-cookie",
      "x-auth-token",
      "x-auth",
      "auth_code",
      "session_id",
      "access_token",
      "refresh_token",
      "accessToken",
      "token",
      "client_secret",
      "clientSecret",
      "password",
      "passwd",
      "code",
      "code_verifier",
      "ticket",
      "private_key",
      ...PERSONAL_FIELDS,
    ];
    expect(listed.filter((name) => !isRedacted(name))).toEqual([]);
  });

  it("are not the spec's Idempotency-Key and token_type, nor names that merely contain a listed one", () => {
    const kept = [
      "idempotency-key",
      "token_type",
      "www-authenticate",
      "keep-alive",
      "code_challenge",
      "supplier_code",
      "sales_account_code",
      "customer_id",
      "default_tax_id",
      "name",
      "limit",
      "monkey",
      "author",
    ];
    expect(kept.filter((name) => isRedacted(name))).toEqual([]);
  });
});

describe("redactForm: query strings and form bodies read as URLSearchParams reads them", () => {
  it("replaces the value of each field whose decoded name is listed, keeping every other field as written", () => {
    expect(redactForm("grant_type=authorization_code&cod%65=abc&code%5fverifier=xyz&client+secret=s")).toBe(
      "grant_type=authorization_code&cod%65=[redacted]&code%5fverifier=[redacted]&client+secret=[redacted]",
    );
    expect(redactForm("email=a%40b.example&limit=5&code=")).toBe("email=[redacted]&limit=5&code=[redacted]");
  });

  it("answers the same string when no name is listed", () => {
    for (const text of ["limit=50", "", "cursor=abc&order=desc", "encode=1", "code", "a=code=1", "codes=1"]) {
      expect(redactForm(text)).toBe(text);
    }
  });
});

describe("redactHeader", () => {
  it("replaces a secret header's whole value, keeping only a Bearer or Basic scheme", () => {
    expect(redactHeader("authorization", "Bearer t-1")).toBe("Bearer [redacted]");
    expect(redactHeader("authorization", "basic abc")).toBe("basic [redacted]");
    expect(redactHeader("authorization", "rsk_live_key")).toBe(REDACTED);
    expect(redactHeader("authorization", "Token rsk_live_key")).toBe(REDACTED);
    expect(redactHeader("x-api-key", "rsk_live_key")).toBe(REDACTED);
    expect(redactHeader("set-cookie", "a=b; Path=/")).toBe(REDACTED);
    expect(redactHeader("idempotency-key", "k-1")).toBe("k-1");
    expect(redactHeader("host", "sim")).toBe("sim");
  });

  it("replaces the listed values of a Location's or Referer's query and fragment", () => {
    expect(redactHeader("location", "https://app.example/cb?cod%65=c-1&lang=en#access_token=t")).toBe(
      "https://app.example/cb?cod%65=[redacted]&lang=en#access_token=[redacted]",
    );
    expect(redactHeader("referer", "https://app.example/cb?state=s&x=1")).toBe(
      "https://app.example/cb?state=[redacted]&x=1",
    );
    expect(redactHeader("location", "/demo/v1/products/1")).toBe("/demo/v1/products/1");
  });
});

describe("redactBody: a whole body, read as the server reads it", () => {
  it("replaces a listed JSON property's value at any depth, whatever its type or the key's escapes", () => {
    const text = '{"a":[{"last_n\\u0061me":"Doe"}],"email":["x@y"],"phone":{"n":1},"tax_id":7,"note":null,"k":"v"}';
    expect(JSON.parse(redactBody("application/json", text))).toEqual({
      a: [{ last_name: REDACTED }],
      email: REDACTED,
      phone: REDACTED,
      tax_id: REDACTED,
      note: REDACTED,
      k: "v",
    });
  });

  it("keeps the text as sent when nothing is listed, and an error envelope's code", () => {
    const text = '{ "name": "Shoe",  "retail_price": 100 }';
    expect(redactBody("application/json", text)).toBe(text);
    const error = '{"error":{"code":"NOT_FOUND","message":"No such customer."}}';
    expect(redactBody("application/json", error)).toBe(error);
    expect(redactBody("application/json", '{"code":"c-123"}')).toBe('{"code":"[redacted]"}');
  });

  it("reads JSON whatever the type says, a form by its type in any case, and keeps nothing else", () => {
    expect(redactBody("text/plain", '{"password":"p"}')).toBe('{"password":"[redacted]"}');
    expect(redactBody("Application/X-WWW-Form-Urlencoded", "password=p&x=1")).toBe("password=[redacted]&x=1");
    expect(redactBody("application/json", '{"password":"p"')).toBe(UNREADABLE);
    expect(redactBody("text/plain", "password=p")).toBe(UNREADABLE);
    expect(redactBody("text/html", '<input name="ticket" value="t">')).toBe(UNREADABLE);
    expect(redactBody(undefined, "")).toBe("");
  });
});
