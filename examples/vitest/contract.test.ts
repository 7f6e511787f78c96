// Table-driven tests from the store's own OpenAPI document (GET {base_url}/openapi.json): every operation carries
// an example request that works on a fresh demo store. Each is sent and must answer its documented success; then
// each operation is refused as the spec says: without a credential, with a bad one, without the scope, with an
// unknown id, with an unknown parameter, while the store is paused or suspended, and past the rate limit.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { failure, outcome, type RetailClient } from "./client.js";
import { advance, clientOf, controlOk, createSandbox, removeSandbox, reset, store } from "./sandbox.js";

const sb = await createSandbox();
afterAll(() => removeSandbox(sb));
// Tests in one file run one after another, so a reset of this file's own sandbox is safe.
beforeEach(() => reset(sb));

const api = clientOf(sb);
const doc = (await api.send("GET", "/openapi.json")).data;

interface Operation {
  id: string;
  method: string;
  path: string;
  /** The scopes an API key needs (none for /me, /store, /outlets, ...). */
  scopes: string[];
  success: number;
  example: { path: string; query: Record<string, string | number | boolean>; body?: unknown; key?: string };
}

/** Every operation of the document, with its example request filled in from the parameters' examples. */
const operations: Operation[] = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(
  ([template, item]) =>
    Object.entries(item).map(([method, op]) => {
      let path = template;
      const query: Operation["example"]["query"] = {};
      let key: string | undefined;
      for (const p of op.parameters ?? []) {
        if (p.in === "path") path = path.replace(`{${p.name}}`, p.example);
        if (p.in === "query" && p.example !== undefined) query[p.name] = p.example;
        if (p.in === "header" && p.name === "Idempotency-Key") key = p.example;
      }
      const media = op.requestBody?.content?.["application/json"];
      const body = media ? (Object.values(media.examples)[0] as { value: unknown }).value : undefined;
      return {
        id: op.operationId as string,
        method: method.toUpperCase(),
        path: template,
        scopes: (op.security?.[0]?.apiKey ?? []) as string[],
        success: Number(Object.keys(op.responses).find((s) => s.startsWith("2"))),
        example: { path, query, body, key },
      };
    }),
);

let sent = 0;

/**
 * The operation's example request sent by `client`, with `query` added and `path` in place of its own. A refusal
 * check sends a key of its own (a key is remembered per credential whatever the route, and a refusal is
 * replayed to a retry with the same key: spec, Limits, Idempotency).
 */
const sendExample = (client: RetailClient, op: Operation, change: { path?: string; query?: object } = {}) =>
  outcome(
    client.send(op.method, change.path ?? op.example.path, {
      query: { ...op.example.query, ...change.query },
      body: op.example.body,
      idempotencyKey: op.example.key && `${op.example.key}-${++sent}`,
    }),
  );

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

it("the document describes the API's 46 operations, the store's base URL as its server", () => {
  expect(operations).toHaveLength(46);
  expect(doc.servers[0].url).toBe(store(sb).baseUrl);
});

describe("each operation's example request answers its documented success on a fresh store", () => {
  it.each(operations.map((op) => [op.id, op] as const))("%s", async (_id, op) => {
    expect(await sendExample(api, op)).toEqual([op.success]);
  });
});

describe("each operation refuses as the spec says (Authentication, Errors)", () => {
  const none = clientOf(sb, "demo", "none");
  const read = clientOf(sb, "demo", "read");
  it.each(operations.map((op) => [op.id, op] as const))("%s", async (_id, op) => {
    expect(await sendExample(api.withCredential(null), op)).toEqual([401, "UNAUTHORIZED"]);
    expect(await sendExample(api.withCredential("not-a-key"), op)).toEqual([401, "UNAUTHORIZED"]);
    expect(await sendExample(api, op, { query: { unknown_parameter: 1 } })).toEqual([400, "VALIDATION_FAILED"]);
    // No scope at all: refused unless the operation needs none. The `read` key has every read scope only.
    const unscoped = op.scopes.length === 0;
    expect(await sendExample(none, op)).toEqual(unscoped ? [op.success] : [403, "INSUFFICIENT_SCOPE"]);
    const writes = op.scopes.some((s) => s.endsWith(":write"));
    expect(await sendExample(read, op)).toEqual(writes ? [403, "INSUFFICIENT_SCOPE"] : [op.success]);
    if (op.path.includes("{id}")) {
      const segments = op.example.path.split("/");
      segments[op.path.split("/").indexOf("{id}")] = UNKNOWN_ID;
      const path = segments.join("/");
      expect(await sendExample(api, op, { path })).toEqual([404, "NOT_FOUND"]);
    }
    const { prefix } = store(sb);
    await controlOk(sb, "PATCH", `/stores/${prefix}`, { status: "paused" });
    expect(await sendExample(api, op)).toEqual([402, "RETAILER_PAUSED"]);
    await controlOk(sb, "PATCH", `/stores/${prefix}`, { status: "suspended" });
    expect(await sendExample(api, op)).toEqual([403, "RETAILER_SUSPENDED"]);
  });
});

it("past 120 requests in a minute every operation answers 429 RATE_LIMITED with Retry-After; a minute later, 200", async () => {
  for (let n = 0; n < 120; n++) expect(await outcome(api.send("GET", "/me"))).toEqual([200]);
  for (const op of operations) expect([op.id, ...(await sendExample(api, op))]).toEqual([op.id, 429, "RATE_LIMITED"]);
  const refused = await failure(api.send("GET", "/me"));
  expect(refused.retryAfter).toBeGreaterThan(0);
  await advance(sb, 60);
  expect(await outcome(api.send("GET", "/me"))).toEqual([200]);
});

describe("a store's plan and status refuse every call with their own code (control plane: PATCH /stores/{prefix})", () => {
  it.each([
    [{ status: "paused" }, 402, "RETAILER_PAUSED"],
    [{ status: "trial_decision_required" }, 402, "TRIAL_DECISION_REQUIRED"],
    [{ status: "plan_users_exceeded" }, 402, "PLAN_USERS_EXCEEDED"],
    [{ status: "cancelled" }, 403, "RETAILER_CANCELLED"],
    [{ status: "suspended" }, 403, "RETAILER_SUSPENDED"],
    [{ status: "not_found" }, 403, "RETAILER_NOT_FOUND"],
    [{ plan: "lite" }, 402, "PLAN_REQUIRED"],
  ])("%j answers %i %s, and active again answers 200", async (change, status, code) => {
    const { prefix } = store(sb);
    await controlOk(sb, "PATCH", `/stores/${prefix}`, change);
    expect(await outcome(api.send("GET", "/products"))).toEqual([status, code]);
    await controlOk(sb, "PATCH", `/stores/${prefix}`, { status: "active", plan: "growth" });
    expect(await outcome(api.send("GET", "/products"))).toEqual([200]);
  });

  it("the lite store, whose plan has no API access, answers 402 PLAN_REQUIRED to its own key", async () => {
    expect(await outcome(clientOf(sb, "lite").send("GET", "/me"))).toEqual([402, "PLAN_REQUIRED"]);
  });
});
