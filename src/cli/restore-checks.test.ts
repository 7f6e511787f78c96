import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulator } from "../simulator.js";
import { MAX_FAULTS } from "../engine/faults.js";
import { BIN, ensureBuilt, ROOT } from "../test-support/conformance.js";
import { manyFaults } from "../test-support/snapshots.js";

// docs/spec-choices.md, Restored documents: a snapshot the command line is given (--fixture FILE,
// --state FILE) goes through the caps and invariants of live operation; refused, the process exits 2
// naming every problem on stderr, before it listens. docs/interfaces.md, Caps: world-bytes holds the
// default sandbox too.

const dir = mkdtempSync(join(tmpdir(), "retail-sim-restore-"));
beforeAll(ensureBuilt);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) =>
  spawnSync(process.execPath, [BIN, "--port", "0", ...args], { cwd: ROOT, encoding: "utf8", timeout: 30_000 });

describe("the command line refuses a snapshot live operation could not have made", () => {
  it("two live products with one sku (--state), and 500,000 faults besides (--fixture): exit 2, each named", () => {
    const doc = createSimulator({ clock: "manual" }).snapshot();
    const [a, b] = doc.stores[0]?.catalog.products ?? [];
    if (!a || !b) throw new Error("the demo has products");
    (b.value as { sku: string }).sku = a.value.sku.toLowerCase();
    const sku = "stores.0.catalog.products.1.value.sku: another live row has it";
    const state = join(dir, "state.json");
    writeFileSync(state, JSON.stringify(doc));
    const stateRefused = run(["--state", state]);
    expect([stateRefused.status, stateRefused.stdout]).toEqual([2, ""]);
    expect(stateRefused.stderr).toContain(sku);
    doc.faults = manyFaults(500_000);
    const fixture = join(dir, "faults.json");
    writeFileSync(fixture, JSON.stringify(doc));
    const refused = run(["--fixture", fixture]);
    expect([refused.status, refused.stdout]).toEqual([2, ""]);
    expect(refused.stderr).toContain(sku);
    expect(refused.stderr).toContain(`faults.list: 500000 faults: at most ${MAX_FAULTS}`);
  });

  it("--cap world-bytes below what the fixture takes: exit 2 saying so", () => {
    const refused = run(["--cap", "world-bytes=100000"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("--cap world-bytes");
  });
});
