import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOG } from "./rules/index.js";
import { SPEC_MAP, unitsOf } from "./spec-map.js";
import { PAGE, ROOT, renderTraceability, ruleUnits, scanAnchors, specUnits, UNANCHORED } from "./traceability.js";

// docs/architecture.md, How a rule is declared: a rule lives in its declaration (conformance/rules), the
// spec sentence it quotes (listed by the spec map) and its anchors in the production code of src/.

const units = specUnits();
const anchors = scanAnchors();
const anchored = new Set(anchors.map((a) => a.id));
const ids = new Set(CATALOG.map((r) => r.id));

describe("Traceability: sentence, rule, engine code, tests", () => {
  it("every rule's spec.quote is a sentence of the spec that the spec map lists the rule for", () => {
    const orphans = CATALOG.filter((r) => {
      const mine = ruleUnits(units, r.spec);
      return !SPEC_MAP.some((e) => e.rules?.includes(r.id) && unitsOf(units, e).some((u) => mine.includes(u)));
    });
    expect(orphans.map((r) => `${r.id}: [${r.spec.section}] ${r.spec.quote}`)).toEqual([]);
  });

  it('every rule has an anchor in src/ (`// rule <id>: ` or `branch: "<id>"`), or is allow-listed with a reason', () => {
    const missing = CATALOG.map((r) => r.id).filter((id) => !anchored.has(id) && !UNANCHORED[id]?.trim());
    expect(missing).toEqual([]);
  });

  it("every anchor names a rule of the catalogue", () => {
    const typos = anchors.filter((a) => !ids.has(a.id));
    expect(typos.map((a) => `${a.file}: ${a.text}`)).toEqual([]);
  });

  it("the allow-list holds only rules of the catalogue that have no anchor", () => {
    const stale = Object.keys(UNANCHORED).filter((id) => !ids.has(id) || anchored.has(id));
    expect(stale).toEqual([]);
    expect(Object.keys(UNANCHORED).length).toBeLessThanOrEqual(12);
  });

  it("docs/traceability.md is what `npm run gen:traceability` writes", () => {
    const page = readFileSync(join(ROOT, PAGE), "utf8");
    expect(page === renderTraceability(), `${PAGE} is stale: run npm run gen:traceability`).toBe(true);
  });
});
