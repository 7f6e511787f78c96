import { describe, expect, it } from "vitest";
import type { Simulator } from "./simulator.js";
import { checkedSimulator } from "./test-support/sim.js";

// README ("For byte-identical runs, use --clock manual --seed N"): with a manual clock and a given seed, the
// same requests give byte-identical responses: ids, versions, cursors, timestamps, tokens and headers.

async function runScript(seed: number): Promise<string[]> {
  const sim: Simulator = checkedSimulator({ clock: "manual", seed });
  const transcript: string[] = [];
  const send = async (method: string, path: string, token: string | null, body?: unknown) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (method !== "GET") headers["content-type"] = "application/json";
    const res = await sim.fetch(`http://sim.test${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const head = [...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
    const text = await res.text();
    transcript.push(`${method} ${path}\n${res.status}\n${head}\n\n${text}`);
    return text ? JSON.parse(text) : null;
  };
  const creds = await send("GET", "/_sim/credentials", null);
  const full = creds.stores[0].keys[0].token as string;
  await send("GET", "/demo/v1/me", full);
  await send("GET", "/demo/v1/store", full);
  const first = await send("GET", "/demo/v1/outlets?limit=1", full);
  await send("GET", `/demo/v1/outlets?limit=1&cursor=${first.next_cursor}`, full);
  await send("GET", "/demo/v1/payment-types?order=desc", full);
  await send("GET", "/demo/v1/taxes?limit=0", full);
  await send("POST", "/_sim/clock", null, { advance_seconds: 61 });
  const key = await send("POST", "/_sim/stores/demo/keys", null, { name: "script", scopes: ["inventory:write"] });
  await send("GET", "/demo/v1/inventory/adjustment-reasons", key.token);
  await send("GET", "/demo/v1/me", "rsk_unknown_token_000000000000");
  await send("GET", "/demo/v1/nope", full);
  await send("GET", "/demo/v1/openapi.json", full);
  await send("POST", `/_sim/keys/${key.id}/revoke`, null);
  await send("GET", "/demo/v1/me", key.token);
  return transcript;
}

describe("README (byte-identical runs): same seed, manual clock, same requests", () => {
  it("gives byte-identical responses, headers included", async () => {
    const a = await runScript(7);
    const b = await runScript(7);
    expect(a).toHaveLength(15);
    expect(b).toEqual(a);
    expect(a.join("\n")).toContain("date: Thu, 01 Jan 2026 00:01:01 GMT");
  });

  it("another seed gives other ids and tokens", async () => {
    const a = await runScript(7);
    const c = await runScript(8);
    expect(c[0]).not.toEqual(a[0]);
  });
});
