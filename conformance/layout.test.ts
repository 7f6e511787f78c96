import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MUTANTS } from "./test-support/mutants/index.js";
import { CATALOG, CLOCK_LAST } from "./rules/index.js";
import { AREAS } from "./rules/rule.js";

// A rule's id says where it lives: `area.what` is declared in rules/<area>.ts or under rules/<area>/,
// and its `area` field is the one AREAS gives the prefix. A targeted mutant lives in
// test-support/mutants/<area>.ts, the area of the rules that catch it. Helpers shared across areas are
// in rules/support/ and test-support/mutants/support.ts.

const rulesDir = join(dirname(fileURLToPath(import.meta.url)), "rules");
const mutantsDir = join(dirname(fileURLToPath(import.meta.url)), "test-support", "mutants");

/** The .ts files under dir (tests left out), relative to it; only its own files when not deep. */
function sources(dir: string, deep = true, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return deep ? sources(path, deep, root) : [];
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [relative(root, path)] : [];
  });
}

/** Where each rule is declared: `rule({` followed by its id, a string or a template (`catalog.cap-${collection}`). */
const declared = sources(rulesDir).flatMap((file) =>
  [...readFileSync(join(rulesDir, file), "utf8").matchAll(/rule\(\{\s*id: (["`])([^"`]+)\1/g)].map((m) => ({
    file,
    id: m[2]!,
    matches: new RegExp(`^${m[2]!.replace(/[.]/g, "\\.").replace(/\$\{[^}]*\}/g, "[a-z-]+")}$`),
  })),
);

const prefix = (id: string): string => id.slice(0, id.indexOf("."));
/** The area a file belongs to: its folder under rules/, or its own name for a file directly in rules/. */
const areaOfFile = (file: string): string => file.split("/")[0]!.replace(/\.ts$/, "");

describe("Rule layout: a rule's id names its file and its area", () => {
  it("every rule of the CATALOG is declared exactly once, and every declaration makes a rule of the CATALOG", () => {
    // A template matches the ids no string declares (`catalog.${one}-delete` is not catalog.product-delete).
    const literal = (id: string) => declared.filter((d) => d.id === id).length;
    const count = (id: string) =>
      literal(id) || declared.filter((d) => d.id.includes("${") && d.matches.test(id)).length;
    expect(CATALOG.map((r) => [r.id, count(r.id)]).filter(([, n]) => n !== 1)).toEqual([]);
    expect(declared.filter((d) => !CATALOG.some((r) => d.matches.test(r.id))).map((d) => d.id)).toEqual([]);
  });

  it("every rule `area.what` is declared in rules/<area>.ts or under rules/<area>/", () => {
    const misplaced = declared.filter((d) => areaOfFile(d.file) !== prefix(d.id));
    expect(misplaced.map((d) => `${d.id} in rules/${d.file}`)).toEqual([]);
  });

  it("every rule's area field is the area of its id prefix", () => {
    const areas: Readonly<Record<string, string>> = AREAS;
    const wrong = CATALOG.filter((r) => areas[prefix(r.id)] !== r.area);
    expect(wrong.map((r) => `${r.id}: area ${r.area}, prefix ${prefix(r.id)} is ${areas[prefix(r.id)]}`)).toEqual([]);
  });

  it("the rules that move the clock far run last, in the order CLOCK_LAST gives", () => {
    expect(CATALOG.slice(-CLOCK_LAST.length).map((r) => r.id)).toEqual([...CLOCK_LAST]);
  });
});

/** Where each targeted mutant is declared: an entry `{` whose first line is its name. */
const mutantFiles = sources(mutantsDir, false).flatMap((file) =>
  [...readFileSync(join(mutantsDir, file), "utf8").matchAll(/^ {2}\{\n {4}name: "([^"]+)"/gm)].map((m) => ({
    file,
    name: m[1]!,
  })),
);

describe("Mutant layout: a targeted mutant lives in the file of the area whose rules catch it", () => {
  it("every mutant of MUTANTS is declared exactly once in mutants/", () => {
    const names = mutantFiles.map((d) => d.name).sort();
    expect(names).toEqual(MUTANTS.map((m) => m.name).sort());
  });

  it("every mutant in mutants/<area>.ts is caught by rules of that area", () => {
    const fileOf = new Map(mutantFiles.map((d) => [d.name, d.file.replace(/\.ts$/, "")]));
    const wrong = MUTANTS.filter(
      (m) => m.caughtBy.length === 0 || m.caughtBy.some((id) => prefix(id) !== fileOf.get(m.name)),
    );
    expect(
      wrong.map((m) => `${m.name} in mutants/${fileOf.get(m.name)}.ts, caught by ${m.caughtBy.join(", ")}`),
    ).toEqual([]);
  });
});
