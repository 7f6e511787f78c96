// docs/interfaces.md, Journal and coverage: the control plane's /requests, /requests.har and /coverage
// routes, their filters and refusals, and the journal's bounds (entries per sandbox, each body's start,
// the process's byte budget) whatever the traffic.
import { describe, expect, it } from "vitest";
import { createSimulator, type Simulator } from "../index.js";
import { harProblems } from "../test-support/har.js";

const NOW = "2026-01-01T00:00:00.000Z";

async function get(sim: Simulator, path: string, init: RequestInit = {}) {
  const res = await sim.fetch(`http://sim${path}`, init);
  const json: any = res.status === 204 ? null : await res.json();
  return { status: res.status, json };
}

async function traffic(sim: Simulator, n: number, key = sim.token("demo", "full")) {
  for (let i = 0; i < n; i++)
    await sim.fetch(`http://sim/demo/v1/${i % 2 === 0 ? "me" : "outlets"}`, {
      headers: { authorization: `Bearer ${key}` },
    });
}

describe("GET {control_url}/requests: filters", () => {
  it("filters by method, path prefix, status or class, operation, code, since and limit", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW });
    await traffic(sim, 6);
    await sim.fetch("http://sim/demo/v1/me", { headers: { authorization: "Bearer wrong" } });
    const all = await get(sim, "/_sim/requests");
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ sandbox: "default", held: 7, recorded: 7, dropped: 0, next_seq: 8 });
    const seqs = async (query: string) =>
      ((await get(sim, `/_sim/requests?${query}`)).json.data as { seq: number }[]).map((e) => e.seq);
    expect(await seqs("path=/demo/v1/out")).toEqual([2, 4, 6]);
    expect(await seqs("operation=getMe&status=2xx")).toEqual([1, 3, 5]);
    expect(await seqs("status=401")).toEqual([7]);
    expect(await seqs("code=UNAUTHORIZED")).toEqual([7]);
    expect(await seqs("since=5")).toEqual([5, 6, 7]);
    expect(await seqs("limit=2")).toEqual([6, 7]);
    expect(await seqs("method=post")).toEqual([]);
  });

  it("refuses an unknown or malformed filter with 400 VALIDATION_FAILED naming it", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW });
    const bad = await get(sim, "/_sim/requests?status=abc&limit=0&colour=red");
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("VALIDATION_FAILED");
    expect(bad.json.error.fields.map((f: { field: string }) => f.field)).toEqual([
      "query.status",
      "query.limit",
      "query.colour",
    ]);
  });

  it("DELETE clears the entries, sequence numbers go on; control requests are never journaled", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW });
    await traffic(sim, 3);
    expect((await get(sim, "/_sim/requests", { method: "DELETE" })).status).toBe(204);
    await traffic(sim, 1);
    const page = (await get(sim, "/_sim/requests")).json;
    expect(page).toMatchObject({ held: 1, recorded: 1, next_seq: 5 });
    expect(page.data[0].seq).toBe(4);
    expect((await get(sim, "/_sim/coverage")).json.requests).toBe(4);
    expect((await get(sim, "/_sim/coverage", { method: "DELETE" })).status).toBe(204);
    expect((await get(sim, "/_sim/coverage")).json.requests).toBe(0);
  });

  it("a sandbox's control plane shows its own journal only", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW });
    const box = sim.sandbox();
    // The sandbox's key on the default sandbox's store: refused there, and journaled there.
    await traffic(sim, 2, box.token("demo-sb1", "full"));
    await sim.fetch("http://sim/demo-sb1/v1/me", {
      headers: { authorization: `Bearer ${box.token("demo-sb1", "full")}` },
    });
    expect((await get(sim, `/_sim/sandboxes/${box.id}/requests`)).json).toMatchObject({ sandbox: "sb1", held: 1 });
    expect((await get(sim, "/_sim/requests")).json.held).toBe(2);
  });

  it("GET requests.har answers the filtered entries as HAR 1.2", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW });
    await traffic(sim, 2);
    const har = await get(sim, "/_sim/requests.har?operation=listOutlets");
    expect(har.status).toBe(200);
    expect(har.json.log.version).toBe("1.2");
    expect(harProblems(har.json)).toEqual([]);
    expect(har.json.log.entries.map((e: { request: { url: string } }) => e.request.url)).toEqual([
      "http://sim/demo/v1/outlets",
    ]);
  });

  it("with the journal off, the routes answer 404 NOT_FOUND and the library throws", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW, journal: false });
    await traffic(sim, 1);
    const off = await get(sim, "/_sim/requests");
    expect(off.status).toBe(404);
    expect(off.json.error.code).toBe("NOT_FOUND");
    expect(() => sim.coverage()).toThrow("journal is off");
  });
});

describe("the journal's bounds hold whatever the traffic", () => {
  it("a sandbox keeps its newest journal-entries entries and counts the ones let go", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW, caps: { journalEntries: 5 } });
    await traffic(sim, 12);
    const page = sim.journal();
    expect(page).toMatchObject({ held: 5, recorded: 12, dropped: 7, next_seq: 13 });
    expect(page.data.map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    // Coverage counts every exchange, also those the ring let go.
    expect(sim.coverage().requests).toBe(12);
  });

  it("each body is kept to journal-body-bytes, with its whole length and truncated: true", async () => {
    const sim = createSimulator({ clock: "manual", now: NOW, caps: { journalBodyBytes: 64 } });
    await sim.fetch("http://sim/demo/v1/products?limit=200", {
      headers: { authorization: `Bearer ${sim.token("demo", "full")}` },
    });
    const entry = sim.journal().data[0];
    expect(entry?.response.truncated).toBe(true);
    expect(entry?.response.body?.length).toBeLessThanOrEqual(64);
    expect(entry?.response.body?.startsWith('{"data":[{')).toBe(true);
    expect(entry?.response.body_bytes).toBeGreaterThan(64);
  });

  it("every sandbox's journal together stays within journal-bytes: the process's oldest entries go first", async () => {
    const budget = 150_000;
    const sim = createSimulator({ clock: "manual", now: NOW, caps: { journalBytes: budget }, rateLimits: false });
    const boxes = [sim.sandbox(), sim.sandbox()];
    const token = (i: number) => boxes[i]?.token(`demo-sb${i + 1}`, "full") ?? "";
    for (let round = 0; round < 40; round++)
      for (let i = 0; i < 2; i++)
        await sim.fetch(`http://sim/demo-sb${i + 1}/v1/products?limit=20`, {
          headers: { authorization: `Bearer ${token(i)}` },
        });
    const pages = boxes.map((b) => b.journal());
    // What the bodies kept weigh in memory (UTF-16): within the budget, which also counts the rest.
    const bodies = pages
      .flatMap((p) => p.data)
      .map((e) => (e.request.body?.length ?? 0) + (e.response.body?.length ?? 0));
    expect(2 * bodies.reduce((a, b) => a + b, 0)).toBeLessThan(budget);
    for (const page of pages) {
      expect(page.recorded).toBe(40);
      expect(page.held).toBeGreaterThan(0);
      expect(page.held + page.dropped).toBe(40);
      // The newest entry of each sandbox is kept.
      expect(page.data.at(-1)?.seq).toBe(40);
    }
  });
});
