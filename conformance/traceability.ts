import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CATALOG } from "./rules/index.js";
import {
  inSection,
  inSentence,
  NON_NORMATIVE,
  SPEC_MAP,
  type SpecSentence,
  type SpecUnit,
  splitSpec,
  unitsOf,
} from "./spec-map.js";

// Traceability: a spec sentence, the rules that check it (their declaration), the production code that
// carries each rule out (its anchors in src/) and the tests that name it. Everything here is read from
// the catalogue, the spec map and the files themselves; docs/traceability.md is rendered from it by
// `npm run gen:traceability`, and traceability.test.ts holds the parts together. The simulator's code is
// read as text, never imported: conformance/ judges it.

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const PAGE = "docs/traceability.md";

const ID = "[a-z]+\\.[a-z0-9-]+";
/**
 * The two forms of an anchor (docs/architecture.md, How a rule is declared): a comment line that begins
 * `rule <id>: ` (`//`, `/**` or ` * `), or a coverage branch value `branch: "<id>"`.
 */
const COMMENT_ANCHOR = new RegExp(`^\\s*(?://|/\\*\\*?|\\*)\\s*rule (${ID}): (.*?)(?:\\s*\\*/)?$`);
const BRANCH_ANCHOR = new RegExp(`branch: "(${ID})"`, "g");

/**
 * The rules carried out by no single place of src/, each with why. A rule that has a deciding branch
 * gets an anchor instead (traceability.test.ts fails on an entry that has one).
 */
export const UNANCHORED: Readonly<Record<string, string>> = {
  "model.catalog": "lockstep against a reference model: checks every catalog answer, carried by the whole area",
  "model.inventory": "lockstep against a reference model: checks every inventory answer, carried by the whole area",
  "model.customers": "lockstep against a reference model: checks every customer answer, carried by the whole area",
  "model.sales": "lockstep against a reference model: checks every sales answer, carried by the whole area",
  "model.access": "lockstep against a reference model of credentials, scopes and store states across the pipeline",
  "model.oauth": "lockstep against a reference model of the OAuth flow, carried by every OAuth endpoint",
  "model.time": "lockstep over clock jumps: every expiry and window at once",
};

export interface Anchor {
  readonly id: string;
  /** Relative to the repository: `src/engine/inventory/stock.ts`. */
  readonly file: string;
  /** The anchor's text: the comment after `rule <id>: `, or `branch: "<id>"`. */
  readonly text: string;
}

/** The .ts files under a folder of the repository, relative to it, sorted. */
function tsFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .flatMap((e) => {
      const path = join(folder, e.name);
      if (e.isDirectory()) return tsFiles(path);
      return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
    })
    .sort();
}

const isTest = (file: string): boolean => file.endsWith(".test.ts") || file.includes("/test-support/");

/** The anchors of the production code of src/ (tests and test support left out). */
export function scanAnchors(): Anchor[] {
  return tsFiles("src")
    .filter((file) => !isTest(file))
    .flatMap((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line): Anchor[] => {
          const comment = COMMENT_ANCHOR.exec(line);
          if (comment) return [{ id: comment[1]!, file, text: `rule ${comment[1]}: ${comment[2]}` }];
          return [...line.matchAll(BRANCH_ANCHOR)].map((m) => ({ id: m[1]!, file, text: `branch: "${m[1]}"` }));
        }),
    );
}

/** Where each rule is declared: `rule({ id: ... })` in conformance/rules (a template id as a pattern). */
function declarations(): { file: string; matches: RegExp }[] {
  return tsFiles("conformance/rules")
    .filter((file) => !isTest(file))
    .flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(/rule\(\{\s*id: (["`])([^"`]+)\1/g)].map((m) => ({
        file,
        matches: new RegExp(`^${m[2]!.replace(/[.]/g, "\\.").replace(/\$\{[^}]*\}/g, "[a-z-]+")}$`),
      })),
    );
}

/** The vitest files that name a rule id (not as part of a longer id). */
function testsNaming(): (id: string) => string[] {
  const tests = ["src", "conformance", "scenarios"]
    .flatMap(tsFiles)
    .filter((f) => f.endsWith(".test.ts"))
    .map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));
  return (id) => {
    const named = new RegExp(`(?<![a-z0-9.-])${id.replace(/[.]/g, "\\.")}(?![a-z0-9-])`);
    return tests.filter((t) => named.test(t.text)).map((t) => t.file);
  };
}

export const specUnits = (): SpecUnit[] =>
  splitSpec(readFileSync(join(ROOT, "conformance/spec/retail-api-v1.md"), "utf8"));

/**
 * The sentences a rule's own `spec` quotes: those of its section (or a subsection: a rule may name only
 * "Resources and their fields") whose paragraph, list item or row holds the quote, and that the quote
 * contains or is contained in (a quote may span sentences of one paragraph).
 */
export function ruleUnits(units: readonly SpecUnit[], spec: { section: string; quote: string }): SpecUnit[] {
  const mine = (u: SpecUnit) => inSection(spec.section, u) || u.section.startsWith(`${spec.section}: `);
  return units.filter((u) => mine(u) && inSentence(spec.quote, u));
}

const link = (file: string): string => `[${file}](${relative("docs", file)})`;
const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;
/** The HTML id of a rule's entry on the page: `rule-inventory-set-result`. */
const anchorName = (id: string): string => `rule-${id.replace(/\./g, "-")}`;

/** docs/traceability.md, from the spec map in spec order, the catalogue and the anchors. */
export function renderTraceability(): string {
  const units = specUnits();
  const anchors = scanAnchors();
  const declared = declarations();
  const tests = testsNaming();
  const rules = new Map(CATALOG.map((r) => [r.id, r]));
  const line = (e: SpecSentence): number => Math.min(...unitsOf(units, e).map((u) => u.line));
  const entries = SPEC_MAP.map((e, i) => ({ e, i, line: line(e) })).sort((a, b) => a.line - b.line || a.i - b.i);

  const anchorsOf = (id: string) => anchors.filter((a) => a.id === id);
  const checkedIn = (id: string) => [...declared.filter((d) => d.matches.test(id)).map((d) => d.file), ...tests(id)];
  const files = (paths: readonly string[]) => [...new Set(paths)].map(link).join(", ");
  /** A sentence's rules, each a link to its entry (its code and its checks are said there, once). */
  const ruleLink = (id: string): string =>
    rules.has(id)
      ? `[${code(id)}](#${anchorName(id)})`
      : `${code(id)} (the checks every response gets: conformance/ambient)`;

  const out: string[] = [
    "# Traceability",
    "",
    "Generated by `npm run gen:traceability` (`scripts/traceability.ts` over `conformance/traceability.ts`);",
    "do not edit. First every sentence of the spec map, in spec order, with the conformance rules that check",
    "it; then every rule once, with the production code that carries it out (its anchors: a `rule <id>: `",
    'comment or a `branch: "<id>"` value) and the files that declare and test it',
    "([architecture.md](architecture.md#how-a-rule-is-declared)). Anchors are given by file and text, not",
    "line, so an edit elsewhere in a file does not make the page stale: search the file for the text.",
    "",
    "# Sentences",
    "",
  ];
  let section = "";
  for (const { e } of entries) {
    if (e.section !== section) {
      section = e.section;
      out.push(`## ${section}`, "");
    }
    out.push(`> ${e.quote}`, "");
    if (e.rules?.length) out.push(`- rules: ${e.rules.map(ruleLink).join(", ")}`);
    if (e.untestable) out.push(`- untestable: ${e.untestable}`);
    if (e.choice) out.push(`- left open: ${e.choice} ([spec-choices.md](spec-choices.md))`);
    out.push("");
  }
  out.push("## Not normative", "");
  for (const n of NON_NORMATIVE) out.push(`- [${n.section}] ${n.quote}: ${n.reason}`);
  out.push("", "# Rules", "");
  for (const r of CATALOG) {
    out.push(`### <a id="${anchorName(r.id)}"></a>${code(r.id)}`, "", r.title, "");
    const mine = anchorsOf(r.id);
    if (mine.length === 0) out.push(`- no single place: ${UNANCHORED[r.id] ?? "(no anchor)"}`);
    for (const a of mine) out.push(`- ${link(a.file)}: ${code(a.text)}`);
    out.push(`- checked in ${files(checkedIn(r.id))}`, "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}
