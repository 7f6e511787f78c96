// An entry of the spec map, and shorthands for writing one.

export interface SpecSentence {
  /** The spec's heading path ("Endpoints: Inventory rules"); a label inside a section may follow ("Limits: Idempotency"). */
  readonly section: string;
  /**
   * A short verbatim excerpt (markdown backticks removed; a table row as its cells joined with " | ")
   * that identifies one sentence, list item sentence or table row of that section.
   */
  readonly quote: string;
  /**
   * Ids of the conformance rules that check it; `ambient` for the checks every response gets whatever rule
   * runs. A rule whose own `spec` quotes this sentence is not written here: SPEC_MAP adds it (spec-map.ts).
   */
  readonly rules?: readonly string[];
  /** Why it cannot be checked over the API. */
  readonly untestable?: string;
  /** A point the spec leaves open: the topic as docs/spec-choices.md names it in its first column. */
  readonly choice?: string;
}

/** A sentence checked by these rules besides those that quote it (`ambient`: the checks every response gets). */
export const checked = (section: string, quote: string, ...rules: string[]): SpecSentence => ({
  section,
  quote,
  rules,
});

/** A sentence that cannot be checked over the API, and why. */
export const untestable = (section: string, quote: string, why: string): SpecSentence => ({
  section,
  quote,
  untestable: why,
});

/** A point the spec leaves open: the topic of docs/spec-choices.md that records the simulator's choice. */
export const open = (section: string, quote: string, topic: string): SpecSentence => ({
  section,
  quote,
  choice: topic,
});
