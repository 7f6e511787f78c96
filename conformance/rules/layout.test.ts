import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CATALOG, CLOCK_LAST } from "./index.js";
import { AREAS } from "./rule.js";

// A rule's id says where it lives: `area.what` is declared in rules/<area>.ts or under rules/<area>/,
// and its `area` field is the one AREAS gives the prefix. Helpers shared across areas are in support/.

const here = dirname(fileURLToPath(import.meta.url));

/** The .ts files under rules/ (tests left out), relative to it. */
function sources(dir = here): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [relative(here, path)] : [];
  });
}

/** Where each rule is declared: `rule({` followed by its id, a string or a template (`catalog.cap-${collection}`). */
const declared = sources().flatMap((file) =>
  [...readFileSync(join(here, file), "utf8").matchAll(/rule\(\{\s*id: (["`])([^"`]+)\1/g)].map((m) => ({
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
