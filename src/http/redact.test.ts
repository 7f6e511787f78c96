// docs/interfaces.md, Journal and coverage, Redaction: in form bodies, query strings and Location headers
// the values of `code`, `code_verifier`, `client_secret`, `refresh_token`, `access_token`, `password`
// and a customer's personal fields are `[redacted]`; everything else is kept as sent.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redactForm, redactHeader, redactHeaders } from "./redact.js";

/** The rule written as one expression: a listed name right after the start, `?` or `&`, then `=`. */
const NAMES =
  "code|code_verifier|client_secret|refresh_token|access_token|password|last_name|company_name|email|phone|mobile|website|gender|tax_id|note|date_of_birth|address_1|address_2|city|state|zipcode|country|custom_field_1|custom_field_2|custom_field_3|custom_field_4|customer_code|first_name";
const reference = (text: string) => text.replace(new RegExp(`(^|[?&])(${NAMES})=[^&#]*`, "g"), `$1$2=${REDACTED}`);

describe("Redaction of form bodies, query strings and Location headers", () => {
  it("replaces the value of each listed field, wherever it starts a field", () => {
    expect(redactForm("grant_type=authorization_code&code=abc&code_verifier=xyz")).toBe(
      "grant_type=authorization_code&code=[redacted]&code_verifier=[redacted]",
    );
    expect(redactForm("https://app.example/cb?scope=s1&code=c-123#frag")).toBe(
      "https://app.example/cb?scope=s1&code=[redacted]#frag",
    );
    expect(redactForm("email=a%40b.example&limit=5")).toBe("email=[redacted]&limit=5");
    expect(redactForm("access_token=")).toBe("access_token=[redacted]");
  });

  it("keeps a text with no listed field as the same string", () => {
    for (const text of [
      "limit=50",
      "",
      "cursor=abc&order=desc",
      "encode=1",
      "xcode=1",
      "code",
      "a=code=1",
      "codes=1",
    ]) {
      expect(redactForm(text)).toBe(text);
    }
  });

  it("answers as the rule's expression does, for any text made of field names and separators", () => {
    const piece = fc.constantFrom(
      "code",
      "code_verifier",
      "email",
      "state",
      "limit",
      "first_name",
      "x",
      "=",
      "&",
      "?",
      "#",
      "%26",
      "é",
      "50",
      "",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        expect(redactForm(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("Redaction of headers", () => {
  it("keeps an Authorization header's scheme, replaces the other secret headers whole and a Location's secret parameters", () => {
    expect(redactHeader("authorization", "Bearer t-1")).toBe("Bearer [redacted]");
    expect(redactHeader("authorization", "Basic abc")).toBe("Basic [redacted]");
    expect(redactHeader("authorization", "Bearer [redacted]")).toBe("Bearer [redacted]");
    expect(redactHeader("cookie", "a=b")).toBe(REDACTED);
    expect(redactHeader("set-cookie", "a=b; Path=/")).toBe(REDACTED);
    expect(redactHeader("proxy-authorization", "Basic x")).toBe(REDACTED);
    expect(redactHeader("location", "https://app.example/cb?code=c-1&lang=en")).toBe(
      "https://app.example/cb?code=[redacted]&lang=en",
    );
    expect(redactHeader("host", "sim")).toBe("sim");
    expect(redactHeaders({ host: "sim", authorization: "Bearer t-1", cookie: "a=b", accept: undefined })).toEqual({
      host: "sim",
      authorization: "Bearer [redacted]",
      cookie: REDACTED,
    });
  });
});
