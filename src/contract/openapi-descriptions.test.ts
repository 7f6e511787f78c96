// Tests of the operations' descriptions in GET {base_url}/openapi.json (spec, What the service does 6: "the
// machine-readable description of the API") and in the token endpoint's document at the API root: every
// operation says what it does and quotes the spec rules it rests on, and every quote is the spec's own
// words, found in the section (and numbered rule) it is cited under.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../test-support/sim.js";
import { OPERATIONS } from "./operations/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The spec the repository checks against: its own copy, as conformance/spec-map.test.ts reads it. */
const SPEC = readFileSync(resolve(ROOT, "conformance/spec/retail-api-v1.md"), "utf8");

const METHODS = ["get", "put", "post", "delete", "patch"];
/** Reasonable length: more than a summary, less than a page. */
const MIN_LENGTH = 100;
const MAX_LENGTH = 700;

/** Quotes compare with white space collapsed, nothing else changed (backticks and case included). */
const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

/** The passages a text quotes between double quotes, “...” or "...". */
function quotedPassages(text: string): string[] {
  return [...text.matchAll(/“([^“”]*)”|"([^"]*)"/g)].map((m) => m[1] ?? m[2] ?? "");
}

/** A quote mark left over once the quotes are taken out: an unbalanced quote. */
const strayQuote = (text: string): boolean => /[“”"]/.test(text.replace(/“[^“”]*”|"[^"]*"/g, ""));

interface Heading {
  readonly level: number;
  readonly title: string;
  readonly line: number;
}

/** The spec's headings; a citation names one by its title, or by the title's words before " (". */
const headings = (lines: readonly string[]): Heading[] =>
  lines.flatMap((text, line) => {
    const m = /^(#+) (.*)$/.exec(text);
    return m ? [{ level: m[1]!.length, title: m[2]!.replace(/`/g, "").trim(), line }] : [];
  });

interface Citation {
  readonly section: string;
  readonly rules: readonly number[];
  readonly quotes: readonly string[];
}

/**
 * The quotes of a description, each with what it is cited under: "Spec, Inventory rules 3 and 5: “...”"
 * cites the numbered rules 3 and 5 of the section "Inventory rules"; the quotes up to the next "Spec,"
 * or "Spec:" belong to it. Quotes before any citation, or after a bare "Spec:", cite no section.
 */
function citations(text: string): Citation[] {
  return text.split(/(?=\bSpec[,:])/).map((part) => {
    const cited = /^Spec, ([^:“”"]+?)(?: (\d+(?:(?:, | and )\d+)*))?:/.exec(part);
    return {
      section: cited?.[1] ?? "",
      rules: (cited?.[2] ?? "")
        .split(/, | and /)
        .filter(Boolean)
        .map(Number),
      quotes: quotedPassages(part),
    };
  });
}

/** What is wrong with a description's quotes and citations against one spec text; empty when all is right. */
function quoteProblems(text: string, spec: string): string[] {
  const lines = spec.split(/\r?\n/);
  const all = headings(lines);
  const problems: string[] = [];
  if (strayQuote(text)) problems.push("an unbalanced quote mark");
  for (const { section, rules, quotes } of citations(text)) {
    for (const quote of quotes) {
      if (!squash(quote)) problems.push("an empty quote");
      else if (!squash(spec).includes(squash(quote))) problems.push(`not in the spec: “${quote}”`);
    }
    if (!section) continue;
    const found = all.filter((h) => h.title === section || h.title.startsWith(`${section} (`));
    if (found.length !== 1) {
      problems.push(`“Spec, ${section}” names ${found.length} headings of the spec`);
      continue;
    }
    const heading = found[0]!;
    const next = (stop: (h: Heading) => boolean) => all.find((h) => h.line > heading.line && stop(h))?.line;
    // The section runs to the next heading of its level or above; its numbered rules sit before any subheading.
    const body = lines.slice(heading.line, next((h) => h.level <= heading.level) ?? lines.length);
    const own = lines.slice(heading.line, next(() => true) ?? lines.length);
    for (const rule of rules) {
      if (!own.some((l) => l.startsWith(`${rule}. `))) problems.push(`“Spec, ${section}” has no rule ${rule}`);
    }
    const places = rules.length > 0 ? own.filter((l) => rules.some((r) => l.startsWith(`${r}. `))) : [body.join("\n")];
    for (const quote of quotes) {
      if (squash(spec).includes(squash(quote)) && !places.some((p) => squash(p).includes(squash(quote))))
        problems.push(`not in ${section}${rules.length ? ` ${rules.join(" and ")}` : ""}: “${quote}”`);
    }
  }
  return problems;
}

/** The operations of the served documents: the store's API, and the token endpoint's own at the API root. */
async function servedOperations(): Promise<{ name: string; description: unknown }[]> {
  const sim = makeSim();
  const api = await call(sim, "GET", "/demo/v1/openapi.json");
  const oauth = await call(sim, "GET", "/oauth/openapi.json", { auth: null });
  expect([api.status, oauth.status]).toEqual([200, 200]);
  type Paths = Record<string, Record<string, { operationId: string; description?: unknown }>>;
  const paths = [...Object.entries(api.json.paths as Paths), ...Object.entries(oauth.json.paths as Paths)];
  return paths.flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      name: `${m.toUpperCase()} ${path} (${item[m]!.operationId})`,
      description: item[m]!.description,
    })),
  );
}

describe("Spec, What the service does 6: every operation of the served documents describes itself, quoting the spec", () => {
  it(`every operation has a description of ${MIN_LENGTH} to ${MAX_LENGTH} characters that cites the spec and quotes it`, async () => {
    const operations = await servedOperations();
    expect(operations.length).toBe(OPERATIONS.length + 1);
    const wrong = operations.flatMap(({ name, description }) => {
      if (typeof description !== "string") return [`${name}: no description`];
      const problems: string[] = [];
      if (description.length < MIN_LENGTH || description.length > MAX_LENGTH)
        problems.push(`${description.length} characters`);
      if (!/\bSpec, [^:]+:/.test(description)) problems.push("cites no section of the spec");
      if (quotedPassages(description).length === 0) problems.push("quotes nothing");
      return problems.map((p) => `${name}: ${p}`);
    });
    expect(wrong).toEqual([]);
  });

  it("every quote is found verbatim (white space collapsed) in conformance/spec/retail-api-v1.md, in the section and rule it is cited under", async () => {
    const operations = await servedOperations();
    const wrong = operations.flatMap(({ name, description }) =>
      quoteProblems(String(description), SPEC).map((p) => `${name}: ${p}`),
    );
    expect(wrong).toEqual([]);
  });
});

describe("the quote check itself can fail", () => {
  const spec = SPEC;

  it("a right quote under its section and rule passes, with or without backticks as the spec has them", () => {
    expect(
      quoteProblems(
        'Spec, Inventory rules 3: “A replayed batch marks every line `replayed: true`.” Spec, Limits: "A 500 is not remembered."',
        spec,
      ),
    ).toEqual([]);
  });

  it("a reworded quote, a quote under the wrong section or rule, an unknown section and an unbalanced quote are each found", () => {
    expect(
      quoteProblems("Spec, Inventory rules 3: “A replayed batch marks each line `replayed: true`.”", spec),
    ).toEqual(["not in the spec: “A replayed batch marks each line `replayed: true`.”"]);
    expect(quoteProblems("Spec, Inventory rules 3: “A replayed batch marks every line replayed: true.”", spec)).toEqual(
      ["not in the spec: “A replayed batch marks every line replayed: true.”"],
    );
    expect(
      quoteProblems("Spec, Inventory rules 2: “A replayed batch marks every line `replayed: true`.”", spec),
    ).toEqual(["not in Inventory rules 2: “A replayed batch marks every line `replayed: true`.”"]);
    expect(quoteProblems("Spec, Delete rules: “A 500 is not remembered.”", spec)).toEqual([
      "not in Delete rules: “A 500 is not remembered.”",
    ]);
    expect(quoteProblems("Spec, Inventory rules 9: “`PUT` sets an absolute level.”", spec)).toEqual([
      "“Spec, Inventory rules” has no rule 9",
      "not in Inventory rules 9: “`PUT` sets an absolute level.”",
    ]);
    expect(quoteProblems("Spec, Stock rules: “A 500 is not remembered.”", spec)).toEqual([
      "“Spec, Stock rules” names 0 headings of the spec",
    ]);
    expect(quoteProblems("Spec, Limits: “A 500 is not remembered.", spec)).toEqual(["an unbalanced quote mark"]);
  });

  it("citations split a description into the quotes each section vouches for", () => {
    expect(
      citations("Does X. Spec, Sales list rules 2 and 4: “a” and “b”. Then “c”, Spec: not shown; Spec, Limits: “d”"),
    ).toEqual([
      { section: "", rules: [], quotes: [] },
      { section: "Sales list rules", rules: [2, 4], quotes: ["a", "b", "c"] },
      { section: "", rules: [], quotes: [] },
      { section: "Limits", rules: [], quotes: ["d"] },
    ]);
  });
});
