import type { SpecSentence } from "../spec-map.js";

// Shorthands for the entries of the spec map.

/** A sentence checked by these rules (`ambient`: the checks every response gets). */
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
