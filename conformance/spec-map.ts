import { accessMap } from "./spec-map/access.js";
import { endpointMap } from "./spec-map/endpoints.js";
import { overviewMap } from "./spec-map/overview.js";
import { resourceMap } from "./spec-map/resources.js";
import { ruleMap } from "./spec-map/rules.js";
import { CATALOG } from "./rules/index.js";
import { normalize, SENTENCE_END, type SpecUnit } from "./spec-map/split.js";

// The spec map: every normative sentence of the spec (its copy in conformance/spec/retail-api-v1.md)
// and what accounts for it: the conformance rules that check it, the
// reason it cannot be checked over the API, or the point the spec leaves open (docs/spec-choices.md).
// spec-map.test.ts fails when a sentence is accounted for by nothing.

export { normalize, splitSpec, type SpecUnit, type UnitKind } from "./spec-map/split.js";

import type { SpecSentence } from "./spec-map/entry.js";

export type { SpecSentence };

/**
 * The pseudo rule of the ambient checks: every response is judged against the contract whatever rule
 * sends it (status, error envelope and code-to-status, Content-Type, rate-limit headers, Retry-After,
 * `fields`, the replay header, resource fields, money, timestamps and ids).
 */
export const AMBIENT = "ambient";

/** What is not a normative sentence: the title's introduction, the conventions line and labels of the blocks that follow them. */
export const NON_NORMATIVE: readonly { readonly section: string; readonly quote: string; readonly reason: string }[] = [
  {
    section: "Retail Back-Office Public API, Version 1",
    quote: "This single document covers all nine parts",
    reason: "the document's table of contents",
  },
  {
    section: "Retail Back-Office Public API, Version 1",
    quote: "Conventions: {api_root} is the API host root.",
    reason: "conventions line: notation used by the endpoint table",
  },
  {
    section: "Retail Back-Office Public API, Version 1",
    quote: "{auth_url} is the host that serves the consent screen.",
    reason: "conventions line: notation used by the endpoint table",
  },
  {
    section: "Retail Back-Office Public API, Version 1",
    quote: "{store_prefix} is the store's own path prefix.",
    reason: "conventions line: notation used by the endpoint table",
  },
  {
    section: "Retail Back-Office Public API, Version 1",
    quote: "{base_url} = {api_root}/{store_prefix}/v1.",
    reason: "conventions line: notation used by the endpoint table",
  },
  {
    section: "Retail Back-Office Public API, Version 1",
    quote: "Every path in the endpoint table is relative to {base_url}",
    reason: "conventions line: how to read the endpoint table",
  },
  {
    section: "What the service does",
    quote: "The service is a JSON-over-HTTP API for a retailer's back office.",
    reason: "introduction; rule 5 of the same section states the JSON requirement",
  },
  { section: "What the service does", quote: "It has these areas:", reason: "label of the list of areas" },
  {
    section: "What the service does",
    quote: "Catalog: products, brands, categories, tags, suppliers.",
    reason: "overview of an area; its endpoints and rules are stated in Endpoints",
  },
  {
    section: "What the service does",
    quote: "Inventory: stock levels per outlet, absolute sets, relative adjustments, batch writes.",
    reason: "overview of an area; its endpoints and rules are stated in Endpoints",
  },
  {
    section: "What the service does",
    quote: "Customers.",
    reason: "overview of an area; its endpoints and rules are stated in Endpoints",
  },
  {
    section: "What the service does",
    quote: "Account and store reference data: the caller's identity",
    reason: "overview of an area; its endpoints are stated in Endpoints",
  },
  {
    section: "What the service does",
    quote: "Rules that hold across the API:",
    reason: "label of the numbered list that follows",
  },
  { section: "Resources and their fields: Product", quote: "Sub-records:", reason: "label of the table that follows" },
  {
    section: "States and transitions",
    quote: "Credential (API key or OAuth connection)",
    reason: "label of the state table that follows",
  },
  { section: "Authentication", quote: "Scopes:", reason: "label of the scope table that follows" },
];

/** The entries as written: each lists the rules that check its sentence without quoting it themselves. */
export const LISTED: readonly SpecSentence[] = [
  ...overviewMap,
  ...resourceMap,
  ...endpointMap,
  ...ruleMap,
  ...accessMap,
];

/**
 * Whether a rule's own `spec` quotes an entry's sentence: the rule quotes part of it (the sections agree,
 * one may be the other's subsection or carry a label), or the whole of it (the same section).
 * spec-map.test.ts holds every such pair to one sentence of the spec.
 */
export function quotes(spec: { readonly section: string; readonly quote: string }, entry: SpecSentence): boolean {
  const within = (a: string, b: string) => a === b || a.startsWith(`${b}: `);
  const rule = normalize(spec.quote);
  const sentence = normalize(entry.quote);
  // A rule quoting part of the sentence, or all of it and no other (a quote over several sentences may
  // cite one only for context, so such a rule is listed where it checks).
  if (sentence.includes(rule)) return within(entry.section, spec.section) || within(spec.section, entry.section);
  return rule.includes(sentence) && entry.section === spec.section && spec.quote.split(SENTENCE_END).length === 1;
}

/** An entry's section is the unit's heading path, or that path and a label inside it ("Limits: Idempotency"). */
export const inSection = (section: string, unit: SpecUnit): boolean =>
  section === unit.section || section.startsWith(`${unit.section}: `);

/** The units a spec map entry identifies: the one it equals, else every one of its section that contains it. */
export function unitsOf(units: readonly SpecUnit[], entry: { section: string; quote: string }): SpecUnit[] {
  const quote = normalize(entry.quote);
  const mine = units.filter((u) => inSection(entry.section, u));
  const equal = mine.filter((u) => normalize(u.text) === quote);
  return equal.length > 0 ? equal : mine.filter((u) => normalize(u.text).includes(quote));
}

/** A quote lies in the unit's paragraph, list item or row, and is part or all of its sentence. */
export function inSentence(quote: string, unit: SpecUnit): boolean {
  const q = normalize(quote);
  const text = normalize(unit.text);
  return normalize(unit.block).includes(q) && (text.includes(q) || q.includes(text));
}

/**
 * The spec map: each checked entry's rules are those it lists and every rule of the CATALOG whose own
 * `spec` quotes its sentence (a rule's sentence is said once, in its declaration).
 */
export const SPEC_MAP: readonly SpecSentence[] = LISTED.map((e) => {
  if (e.rules === undefined) return e;
  const derived = CATALOG.filter((r) => quotes(r.spec, e)).map((r) => r.id);
  return { ...e, rules: [...new Set([...e.rules, ...derived])] };
});
