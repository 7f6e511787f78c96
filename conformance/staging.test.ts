import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ensureBuilt,
  listenSimulator,
  runCli,
  startServe,
  tempDirs,
  type Served,
} from "../src/test-support/conformance.js";
import { parseKeyOption, type Credentials } from "./credentials.js";
import { MUTANTS } from "./test-support/mutants/index.js";
import { CATALOG } from "./rules/index.js";
import { conformance } from "./run.js";

// A staging run: `retail-sim serve` over HTTP, the suite given no --control (staging has no control
// plane), only credentials a QA team can make in the back office. The rules whose need for a control
// plane was only to obtain a credential run from the credentials given on the command line, and
// without them are skipped naming the option that would let them run.
//
// The test itself uses the server's /_sim to read the demo fixture's credentials and to revoke one
// key before the run (a QA team revokes one in the back office); the suite never sees /_sim.

/** The rules that run from given credentials, and the option each is skipped for without them. */
const UNLOCKED_BY: Record<string, string> = {
  "scopes.missing-scope": "--key",
  "scopes.write-satisfies-read": "--key",
  "scopes.scopeless-endpoints": "--key",
  "scopes.me-lists-scopes": "--key",
  "idempotency.per-credential": "--key",
  "auth.revoked-key": "--revoked-token",
  "stores.foreign-credential": "--other-store-token",
  "isolation.foreign-ids": "--other-store-token",
  "stores.status-codes": "--lite-token",
  "oauth.error-shape": "--oauth-client",
  "oauth.client-credentials-both-ways": "--oauth-client",
};
const CONVERTED = Object.keys(UNLOCKED_BY);

interface Fixture {
  readonly stores: { prefix: string; keys: { id: string; name: string; token: string }[] }[];
  readonly oauth_clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
}

const reports = tempDirs("rsconf-staging-");
const out = reports.out;
let served: Served | undefined;

beforeAll(() => ensureBuilt(), 120_000);

afterEach(async () => {
  await served?.stop();
  served = undefined;
});

afterAll(() => reports.removeAll());

const SCOPED = [
  "none",
  "catalog:read",
  "catalog:write",
  "inventory:read",
  "inventory:write",
  "customers:read",
  "customers:write",
  "sales:read",
];

async function fixture(s: { controlUrl: string }): Promise<Fixture> {
  const res = await fetch(`${s.controlUrl}/credentials`);
  expect(res.status).toBe(200);
  return (await res.json()) as Fixture;
}

const keyOf = (f: Fixture, prefix: string, name: string) => {
  const key = f.stores.find((s) => s.prefix === prefix)?.keys.find((k) => k.name === name);
  if (!key) throw new Error(`the demo fixture has no key ${name} in store ${prefix}`);
  return key;
};

/** The key named `read` is revoked in the back office (here: through the server's control plane). */
async function revokeReadKey(s: { controlUrl: string }, f: Fixture): Promise<string> {
  const read = keyOf(f, "demo", "read");
  const res = await fetch(`${s.controlUrl}/keys/${read.id}/revoke`, {
    method: "POST",
    headers: { "content-type": "application/json" },
  });
  expect(res.status).toBe(200);
  return read.token;
}

function report(dir: string): any {
  return JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
}

describe("Staging: rules that only needed a credential run from credentials given on the command line, without --control", () => {
  it("with --key, --revoked-token, --other-store-token, --lite-token and --oauth-client every such rule passes; no credential reaches the report", async () => {
    served = await startServe();
    const f = await fixture(served);
    const revoked = await revokeReadKey(served, f);
    const scoped = SCOPED;
    const keys = scoped.flatMap((name) => ["--key", `${name}=${keyOf(f, "demo", name).token}`]);
    const client = f.oauth_clients[0]!;
    const dir = out();
    const run = await runCli(
      [
        "--target",
        served.baseUrl,
        "--token",
        served.token,
        ...keys,
        "--revoked-token",
        revoked,
        "--other-store-token",
        `other=${keyOf(f, "other", "full").token}`,
        "--lite-token",
        `lite=${keyOf(f, "lite", "full").token}`,
        "--oauth-client",
        `${client.client_id}:${client.client_secret}`,
        "--oauth-redirect-uri",
        client.redirect_uris[0]!,
        "--rules",
        CONVERTED.join(","),
        "--runs",
        "3",
        "--out",
        dir,
      ],
      110_000,
    );
    const r = report(dir);
    const notPassed = r.rules
      .filter((x: any) => x.status !== "passed")
      .map(
        (x: any) =>
          `${x.id}: ${x.status} ${x.reason ?? `expected ${x.counterexample?.expected}; observed ${x.counterexample?.observed}`}`,
      );
    expect(notPassed).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(r.rules.map((x: any) => x.id).sort()).toEqual([...CONVERTED].sort());
    expect(r.summary).toMatchObject({ passed: CONVERTED.length, failed: 0, skipped: 0 });
    expect(r.summary.verdict).toBe(`All ${CONVERTED.length} rules held.`);
    // Each rule sent requests of its own: it was run, not passed over.
    for (const x of r.rules) expect(x.requests, x.id).toBeGreaterThan(0);
    const text = readFileSync(join(dir, "report.json"), "utf8");
    for (const secret of [
      served.token,
      revoked,
      keyOf(f, "other", "full").token,
      keyOf(f, "lite", "full").token,
      client.client_secret,
      ...scoped.map((n) => keyOf(f, "demo", n).token),
    ]) {
      expect(text).not.toContain(secret);
    }
  }, 120_000);

  it("without those options each is skipped before it sends a request, its unlock naming the option, and the verdict groups them by it", async () => {
    served = await startServe();
    const dir = out();
    const run = await runCli(
      [
        "--target",
        served.baseUrl,
        "--token",
        served.token,
        "--rules",
        CONVERTED.join(","),
        "--runs",
        "3",
        "--out",
        dir,
      ],
      110_000,
    );
    // Nothing judged is never green: exit 2, the reason first in the verdict.
    expect(run.code, run.stderr).toBe(2);
    const r = report(dir);
    expect(r.could_not_run).toBe("no rule could run with what the run was given (see not checked)");
    for (const x of r.rules) {
      expect(x, x.id).toMatchObject({ status: "skipped", unlock: UNLOCKED_BY[x.id], requests: 0 });
      expect(x.reason, x.id).toMatch(/^needs --[a-z-]+ .*, or the target's control plane \(--control\)$/);
      expect(x.reason, x.id).toContain(UNLOCKED_BY[x.id]);
    }
    // Grouped by the option that would let them run, largest group first.
    const groups = Object.fromEntries(
      r.not_checked.map((g: { unlock: string; rules: string[] }) => [g.unlock, [...g.rules].sort()]),
    );
    const expected: Record<string, string[]> = {};
    for (const [id, option] of Object.entries(UNLOCKED_BY)) (expected[`needs ${option}`] ??= []).push(id);
    for (const ids of Object.values(expected)) ids.sort();
    expect(groups).toEqual(expected);
    expect(r.summary).toMatchObject({ passed: 0, failed: 0, skipped: CONVERTED.length });
    // The verdict names the four largest groups (ties in catalog order) and counts the rest.
    expect(r.summary.verdict).toMatch(
      new RegExp(
        `^Could not run: no rule could run with what the run was given \\(see not checked\\); 0 held; ${CONVERTED.length} not checked: 5 needs --key; 2 needs --(other-store-token|oauth-client); 2 needs --(other-store-token|oauth-client); 1 needs --(revoked-token|lite-token); 1 for other reasons\\.$`,
      ),
    );
    for (const group of ["5 needs --key", "2 needs --other-store-token", "2 needs --oauth-client"])
      expect(r.summary.verdict).toContain(group);
    expect(run.stdout).toMatch(/^COULD NOT RUN: /);
  }, 120_000);

  it("credentials that fall short skip the rule naming exactly what is missing: a key of no scope, another store's key", async () => {
    served = await startServe();
    const f = await fixture(served);
    const dir = out();
    const run = await runCli(
      [
        "--target",
        served.baseUrl,
        "--token",
        served.token,
        "--key",
        `catalog:read=${keyOf(f, "demo", "catalog:read").token}`,
        "--rules",
        "scopes.scopeless-endpoints,scopes.write-satisfies-read,stores.foreign-credential,isolation.foreign-ids",
        "--runs",
        "3",
        "--out",
        dir,
      ],
      110_000,
    );
    expect(run.code, run.stderr).toBe(2);
    const unlock = Object.fromEntries(report(dir).rules.map((x: any) => [x.id, [x.status, x.unlock]]));
    expect(unlock).toEqual({
      "scopes.scopeless-endpoints": ["skipped", "--key none=TOKEN"],
      "scopes.write-satisfies-read": ["skipped", "--key catalog:write=TOKEN"],
      "stores.foreign-credential": ["skipped", "--other-store-token"],
      "isolation.foreign-ids": ["skipped", "--other-store-token"],
    });
  }, 120_000);

  it("credentials from the environment and a --credentials file: no secret on the command line, the run the same", async () => {
    served = await startServe();
    const f = await fixture(served);
    const dir = out();
    const file = join(dir, "staging.env");
    writeFileSync(
      file,
      `# the back office's keys\nRETAIL_TOKEN=${served.token}\nRETAIL_KEY_1="${keyOf(f, "demo", "catalog:read").token}"\n`,
    );
    const run = await runCli(
      [
        "--target",
        served.baseUrl,
        "--credentials",
        file,
        "--key",
        "catalog:read",
        "--other-store-token",
        "other",
        "--rules",
        "scopes.me-lists-scopes,isolation.foreign-ids",
        "--runs",
        "2",
        "--out",
        join(dir, "r"),
      ],
      110_000,
      undefined,
      { RETAIL_OTHER_STORE_TOKEN: keyOf(f, "other", "full").token },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(report(join(dir, "r")).rules.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([
      ["scopes.me-lists-scopes", "passed"],
      ["isolation.foreign-ids", "passed"],
    ]);
    expect(report(join(dir, "r")).options.credentials).toEqual(["--key catalog:read", "--other-store-token other"]);
  }, 120_000);

  it("another store's key without its prefix is refused before the run: the key alone does not say which {base_url} it belongs to (exit 2)", async () => {
    served = await startServe();
    const f = await fixture(served);
    const run = await runCli([
      "--target",
      served.baseUrl,
      "--token",
      served.token,
      "--other-store-token",
      keyOf(f, "other", "full").token,
      "--rules",
      "isolation.foreign-ids",
      "--out",
      out(),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--other-store-token takes PREFIX=TOKEN, the store's prefix and a key of it");
    expect(run.stderr).not.toContain(keyOf(f, "other", "full").token);
  }, 60_000);

  it("every rule in the selection above still declares that it needs the control plane, and names those credentials as the alternative", () => {
    for (const id of CONVERTED) {
      const rule = CATALOG.find((r) => r.id === id);
      expect(rule?.needs?.control, id).toBe(true);
      expect(rule?.needs?.orCredentials?.length, id).toBeGreaterThan(0);
    }
  });
});

describe("Staging: the checks made from given credentials catch a server that breaks their sentence", () => {
  // Mutants of the sentences these rules still check without a control plane (a paused store, for
  // one, can only be set through a control plane: stores.status-codes then checks PLAN_REQUIRED alone).
  const caught: [string, string][] = [
    ["insufficient-scope-404", "scopes.missing-scope"],
    ["unauthorized-403", "auth.revoked-key"],
    ["foreign-ids-served", "isolation.foreign-ids"],
    ["oauth-errors-in-envelope", "oauth.error-shape"],
    ["client-credentials-both-accepted", "oauth.client-credentials-both-ways"],
  ];

  it.each(caught)(
    "mutant %s fails %s without a control plane",
    async (name, id) => {
      const mutant = MUTANTS.find((m) => m.name === name);
      expect(mutant?.caughtBy, name).toContain(id);
      const target = await listenSimulator(mutant);
      try {
        const f = await fixture(target);
        const client = f.oauth_clients[0]!;
        const credentials: Credentials = {
          keys: SCOPED.map((n) => parseKeyOption(`${n}=${keyOf(f, "demo", n).token}`)),
          extra: [],
          revoked: await revokeReadKey(target, f),
          otherStore: `other=${keyOf(f, "other", "full").token}`,
          lite: `lite=${keyOf(f, "lite", "full").token}`,
          oauthClient: {
            client_id: client.client_id,
            client_secret: client.client_secret,
            redirect_uri: client.redirect_uris[0]!,
          },
        };
        // No `control`: the suite sees no control plane; the test used it only to read and revoke keys.
        const r = await conformance({ target: target.baseUrl, token: target.token, runs: 5, rules: id, credentials });
        expect(r.rules.map((x) => [x.id, x.status])).toEqual([[id, "failed"]]);
      } finally {
        await target.close();
      }
    },
    60_000,
  );
});
