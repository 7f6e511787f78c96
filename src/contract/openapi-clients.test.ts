import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../examples/generated-clients/drive.js";
import type { Simulator } from "../simulator.js";
import {
  EXAMPLE,
  type Finished,
  ROOT,
  runBin,
  runNode,
  workFolder,
  writeProject,
} from "../test-support/generated-clients.js";
import { checkedSimulator } from "../test-support/sim.js";

// docs/sdk-authors.md, Generate a client: the documents a running simulator serves, {base_url}/openapi.json and
// {api_root}/oauth/openapi.json, are generator input as SDK authors use it. @hey-api/openapi-ts and orval each
// generate a fetch client from them (one run per tool), strict tsc compiles both clients and the drivers of
// examples/generated-clients (one run), and each driver walks the API through its generated client alone against
// a sandbox of this simulator: products, idempotent create, versioned update and a stale one, stock, sales pages,
// customers, the OAuth code exchange. The drivers import Product, Customer, Sale, InventoryLevel and ErrorEnvelope
// by name from the generated code, so compiling them proves the documents name those schemas.

type Tool = "heyapi" | "orval";
const TOOLS: readonly Tool[] = ["heyapi", "orval"];

interface Setup {
  /** The driver's input: the demo store's key, an authorization code and the OAuth client. */
  input: Record<string, string>;
  store: { prefix: string; baseUrl: string };
  /** The store as read in process before the driver ran: the first three SKUs, every sale, outlets, customers. */
  before: { skus: string[]; saleIds: string[]; outletId: string; emails: (string | null)[] };
  read: (path: string) => Promise<any>;
}

let sim: Simulator;
let root: string;
let compiled: Finished;
const setups = new Map<Tool, Setup>();

async function prepare(tool: Tool): Promise<Setup> {
  const box = sim.sandbox();
  const view = box.view;
  const store = view.stores.find((s) => s.prefix.startsWith("demo-"));
  const client = view.oauth_clients[0];
  const admin = view.users.find((u) => u.store_prefix === store?.prefix && u.role === "admin");
  if (!store || !client || !admin) throw new Error("the sandbox has no demo store, OAuth client or admin");
  const key = box.token(store.prefix, "full");
  const read = async (path: string): Promise<any> => {
    const res = await fetch(`${store.base_url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  const documents = {
    api: await read("/openapi.json"),
    oauth: await (await fetch(`${view.api_root}/oauth/openapi.json`)).json(),
  };
  workFolder(root, tool, documents);
  const redirectUri = client.redirect_uris[0] as string;
  const consent = box.control.authorize({
    body: {
      user_id: admin.id,
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: "catalog:read",
      state: "s1",
      decision: "allow",
    },
  });
  const code = new URL(consent.redirect_to).searchParams.get("code") ?? "";
  const [products, sales, outlets, customers] = await Promise.all(
    ["/products?limit=3", "/sales?limit=100", "/outlets?limit=1", "/customers?limit=2"].map(read),
  );
  return {
    input: {
      key,
      code,
      redirectUri,
      clientId: client.client_id,
      clientSecret: client.client_secret,
      sku: `GEN-${tool.toUpperCase()}`,
      idempotencyKey: `create-${tool}`,
    },
    store: { prefix: store.prefix, baseUrl: store.base_url },
    before: {
      skus: products.data.map((p: { sku: string }) => p.sku),
      saleIds: sales.data.map((s: { id: string }) => s.id),
      outletId: outlets.data[0].id,
      emails: customers.data.map((c: { email: string | null }) => c.email),
    },
    read,
  };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "retail-sim-clients-"));
  sim = checkedSimulator({ clock: "manual", seed: 1 });
  await sim.listen(0);
  for (const tool of TOOLS) setups.set(tool, await prepare(tool));
  const generated = await Promise.all([
    runBin(
      "openapi-ts",
      ["-i", "openapi.json", "oauth-openapi.json", "-o", "heyapi/api", "heyapi/oauth", "-c", "@hey-api/client-fetch"],
      join(root, "heyapi"),
    ),
    runBin("orval", ["--config", "orval.config.cjs"], join(root, "orval")),
  ]);
  for (const run of generated) if (run.code !== 0) throw new Error(`a generator failed:\n${run.stdout}${run.stderr}`);
  writeProject(root);
  compiled = await runBin("tsc", ["-p", "tsconfig.json"], root);
}, 180_000);

afterAll(async () => {
  await sim?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("docs/sdk-authors.md, Generate a client: clients generated from the served documents work against the simulator", () => {
  for (const tool of TOOLS) {
    it(`${tool}: the client compiles under strict tsc, names its types, and walks the API with exact answers`, async () => {
      // tsc's diagnostics start with the file's path: none in this tool's folder (generated code included), and
      // none about the project itself (those start with "error").
      expect(compiled.stdout.split("\n").filter((line) => line.startsWith(`${tool}/`))).toEqual([]);
      expect(compiled.stdout).not.toMatch(/^error/m);
      expect(compiled.stderr).toBe("");
      const setup = setups.get(tool) as Setup;
      const run = await runNode(join(root, "out", tool, `${tool}.js`), setup.input);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as Report;

      const [made] = (await setup.read(`/products?sku=${setup.input.sku}`)).data;
      expect(report.products).toEqual({ status: 200, skus: setup.before.skus, hasMore: true });
      // spec, Limits (Idempotency): the same key and body replay the stored answer, marked Idempotent-Replayed.
      expect(report.created).toEqual({
        status: 201,
        id: made.id,
        sku: setup.input.sku,
        version: expect.stringMatching(/^[0-9]+$/),
        replayed: null,
      });
      expect(report.replay).toEqual({ status: 201, id: made.id, replayed: "true" });
      // spec, Product write rules 6: the update answers the new version; the old one again answers 409 STALE_VERSION.
      expect(report.updated).toEqual({ status: 200, version: made.version, retailPrice: 1300 });
      expect(BigInt(report.updated.version)).toBeGreaterThan(BigInt(report.created.version));
      expect(report.stale).toEqual({
        status: 409,
        code: "STALE_VERSION",
        message: `The product is at version ${made.version}, not ${report.created.version}.`,
      });
      expect(report.stock).toEqual({
        status: 200,
        changed: true,
        onHand: 7.5,
        delta: 7.5,
        levels: [[setup.before.outletId, 7.5]],
      });
      // spec, Pagination and polling rules 1: 9 sales in pages of 4 until has_more is false, in the order one page of 100 gives.
      expect(report.sales).toEqual({ pageSizes: [4, 4, 1], ids: setup.before.saleIds, lastHasMore: false });
      expect(setup.before.saleIds).toHaveLength(9);
      expect(report.customers).toEqual({ status: 200, emails: setup.before.emails });
      // spec, Authentication 4, 6 and 8: the code exchanges once at {api_root}/oauth/token and the token works on the
      // store; the code used again answers invalid_grant and disconnects the token (docs/spec-choices.md).
      expect(report.token).toEqual({
        status: 200,
        tokenType: "Bearer",
        expiresIn: 3600,
        scope: "catalog:read",
        apiBaseUrl: setup.store.baseUrl,
      });
      expect(report.codeAgain).toEqual({ status: 400, error: "invalid_grant" });
      expect(report.me).toEqual({ status: 200, domainPrefix: setup.store.prefix, scopes: ["catalog:read"] });
      expect(report.revoked).toEqual({ status: 401, code: "UNAUTHORIZED" });
    });
  }
});

describe("docs/sdk-authors.md, Generate a client: the documented commands are the ones tested", () => {
  const devDependencies: Record<string, string> = JSON.parse(
    readFileSync(join(ROOT, "package.json"), "utf8"),
  ).devDependencies;
  const installed = (name: string) =>
    JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version as string;

  it("every generator or tool the docs run with npx names the version package.json pins and the tests run", () => {
    const section = readFileSync(join(ROOT, "docs/sdk-authors.md"), "utf8").split("## Generate a client")[1];
    const example = readFileSync(join(EXAMPLE, "README.md"), "utf8");
    const commands = [...`${section?.split("\n## ")[0]}\n${example}`.matchAll(/npx (?:-p )?(\S+)/g)]
      .map((m) => m[1] as string)
      .filter((spec) => spec !== "retail-sim");
    const pinned = commands.map((spec) => {
      const at = spec.lastIndexOf("@");
      return at > 0 ? { name: spec.slice(0, at), version: spec.slice(at + 1) } : { name: spec, version: "" };
    });
    expect(new Set(pinned.map((p) => p.name))).toEqual(
      new Set(["@hey-api/openapi-ts", "orval", "openapi-typescript", "@stoplight/spectral-cli", "typescript"]),
    );
    for (const { name, version } of pinned) {
      expect(version, name).toBe(devDependencies[name]);
      expect(version, name).toBe(installed(name));
    }
  });

  it("the generated clients compile with module and moduleResolution NodeNext and strict", async () => {
    const shown = await runBin("tsc", ["-p", "tsconfig.json", "--showConfig"], root);
    const options = JSON.parse(shown.stdout).compilerOptions;
    expect({ module: options.module, moduleResolution: options.moduleResolution, strict: options.strict }).toEqual({
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
    });
  });
});
