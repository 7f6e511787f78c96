import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  AMBIENT,
  inSection,
  inSentence,
  LISTED,
  NON_NORMATIVE,
  normalize,
  quotes,
  SPEC_MAP,
  splitSpec,
  type SpecSentence,
  type SpecUnit,
  unitsOf,
} from "./spec-map.js";
import { CATALOG } from "./rules/index.js";

// The spec map accounts for every normative sentence of the spec, and the rule catalog quotes the spec.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const specPath = resolve(root, "conformance/spec/retail-api-v1.md");
const spec = readFileSync(specPath, "utf8");
const units = splitSpec(spec);
const choices = normalize(readFileSync(resolve(root, "docs/spec-choices.md"), "utf8"));

const matches = (entry: { section: string; quote: string }) => unitsOf(units, entry);
const where = (u: SpecUnit) => `line ${u.line} [${u.section}] ${u.text}`;
const label = (e: { section: string; quote: string }) => `[${e.section}] ${e.quote}`;

describe("Spec map: the spec the suite checks", () => {
  it("the splitter finds the spec's sentences, list items and table rows", () => {
    expect(units.length).toBeGreaterThan(250);
    const texts = units.map((u) => u.text);
    expect(texts).toContain("A 500 is not remembered.");
    expect(texts).toContain(
      "UNAUTHORIZED | 401 | credential missing, malformed, unknown, revoked or idle over 90 days",
    );
    expect(texts).toContain("Null or omitted image_url leaves the image unchanged; an image cannot be removed.");
    expect(units.find((u) => u.text === "Repeating the same on_hand changes nothing (changed false).")?.section).toBe(
      "Endpoints: Inventory rules",
    );
    // Table headers and separators, and plain headings, are structure, not sentences.
    expect(texts.some((t) => /^Field \| Type/.test(t) || /^-+( \| -+)*$/.test(t) || t === "Product")).toBe(false);
  });
});

describe("Spec map: every normative sentence of the spec maps to a rule or a reason", () => {
  it("every sentence, list item and table row is covered by an entry or is listed as non-normative", () => {
    const covered = (u: SpecUnit) =>
      [...SPEC_MAP, ...NON_NORMATIVE].some(
        (e) => inSection(e.section, u) && normalize(u.text).includes(normalize(e.quote)),
      );
    expect(units.filter((u) => !covered(u)).map(where)).toEqual([]);
  });

  it("every entry names rules, or why it is untestable, or the choice the spec leaves open", () => {
    const empty = SPEC_MAP.filter((e) => (e.rules ?? []).length === 0 && !e.untestable?.trim() && !e.choice?.trim());
    expect(empty.map(label)).toEqual([]);
  });

  it("every entry's quote is found in exactly one sentence of its section", () => {
    const wrong = SPEC_MAP.map((e) => [label(e), matches(e).length] as const).filter(([, n]) => n !== 1);
    expect(wrong.map(([e, n]) => `${e}: found in ${n} sentences`)).toEqual([]);
  });

  it("every rule an entry names is in the CATALOG (or is the ambient checks)", () => {
    const known = new Set([...CATALOG.map((r) => r.id), AMBIENT]);
    const unknown = SPEC_MAP.flatMap((e) =>
      (e.rules ?? []).filter((id) => !known.has(id)).map((id) => `${id} (${label(e)})`),
    );
    expect([...new Set(unknown)]).toEqual([]);
  });

  it("every rule of the CATALOG is cited by at least one entry", () => {
    const cited = new Set(SPEC_MAP.flatMap((e) => e.rules ?? []));
    expect(CATALOG.map((r) => r.id).filter((id) => !cited.has(id))).toEqual([]);
  });

  it("every choice names a topic of docs/spec-choices.md", () => {
    const missing = SPEC_MAP.filter((e) => e.choice !== undefined && !choices.includes(normalize(e.choice)));
    expect(missing.map((e) => `${label(e)}: ${e.choice}`)).toEqual([]);
  });

  it("the non-normative allowlist is short, gives a reason each, and each quote is found in exactly one sentence", () => {
    expect(NON_NORMATIVE.length).toBeLessThanOrEqual(20);
    const wrong = NON_NORMATIVE.filter((e) => !e.reason.trim() || matches(e).length !== 1);
    expect(wrong.map(label)).toEqual([]);
    // A sentence is either non-normative or accounted for by entries, not both.
    const both = NON_NORMATIVE.filter((n) => SPEC_MAP.some((e) => matches(e).some((u) => matches(n).includes(u))));
    expect(both.map(label)).toEqual([]);
  });
});

describe("Spec map: the rule catalog quotes the spec", () => {
  // A quote may span sentences of one paragraph, list item or table row, never two of them, and never elides.
  const blocks = [...new Set(units.map((u) => normalize(u.block)))];

  it("every rule's spec.quote is found (normalized) in one paragraph, list item or table row of the spec", () => {
    const paraphrased = CATALOG.filter((r) => !blocks.some((b) => b.includes(normalize(r.spec.quote))));
    expect(paraphrased.map((r) => `${r.id}: ${r.spec.quote}`)).toEqual([]);
  });

  // A rule's sentence is said once, in its declaration: the spec map derives the rule for it.
  const derived = LISTED.flatMap((e) =>
    e.rules === undefined ? [] : CATALOG.filter((r) => quotes(r.spec, e)).map((r) => ({ e, r })),
  );

  it("a rule is derived only for a sentence of the spec its own quote is in", () => {
    // The quote lies in the sentence's paragraph, list item or row, and is part or all of the sentence.
    const wrong = derived.filter(({ e, r }) => !matches(e).some((u) => inSentence(r.spec.quote, u)));
    expect(wrong.map(({ e, r }) => `${r.id} -> ${label(e)}`)).toEqual([]);
  });

  it("no entry lists a rule it derives from the rule's own quote, and SPEC_MAP holds both", () => {
    const twice = derived.filter(({ e, r }) => e.rules?.includes(r.id));
    expect(twice.map(({ e, r }) => `${r.id} -> ${label(e)}`)).toEqual([]);
    const pairs = (map: readonly SpecSentence[]) =>
      new Set(map.flatMap((e) => (e.rules ?? []).map((id) => `${label(e)} ${id}`)));
    const expected = new Set([...pairs(LISTED), ...derived.map(({ e, r }) => `${label(e)} ${r.id}`)]);
    expect([...pairs(SPEC_MAP)].sort()).toEqual([...expected].sort());
  });
});
