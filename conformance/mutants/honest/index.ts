import type { Mutant } from "../base.js";
import { errorVariants } from "./errors.js";
import { shapeVariants } from "./shapes.js";
import { tokenVariants } from "./tokens.js";
import { writeVariants } from "./writes.js";

// Honest variants: servers that choose differently where the spec leaves the choice open. Each is a
// wrapper in the Mutant format with `caughtBy: []`; its `breaks` says "Allowed: ..." and quotes the
// sentence (or the docs/spec-choices.md row) that leaves the choice open. The whole suite must pass
// against every one of them (conformance/honest.test.ts): a failure there is a rule asking for more
// than the spec says.
//
// Choices tried and left out, because the spec does not leave them open:
// - has_more true on a full last page (the next page empty): has_more is read by its name, rows
//   follow the page (pagination.has-more-exactly-full; two mutants are this server).
// - upper-case UUIDs in answers: RFC 9562 4 has UUIDs "output as lowercase characters".
// - Idempotent-Replayed: True: the spec writes the header as "Idempotent-Replayed: true".
// - 403 INSUFFICIENT_SCOPE for another store's credential: GET /me and the other scope-free routes
//   cannot lack a scope, so the 403 variant answers RETAILER_NOT_FOUND.

export const HONEST_VARIANTS: readonly Mutant[] = [
  ...shapeVariants,
  ...tokenVariants,
  ...errorVariants,
  ...writeVariants,
];

/** Wrappers that rewrite what others read (message texts, the JSON text): composed outermost. */
const OUTERMOST = ["honest.other-messages", "honest.json-layout"];
/** Another store's key answers 404 in the composite, so the 403 variant has nothing left to change. */
const LEFT_OUT = ["honest.foreign-credential-403"];

/** One server making every choice above at once: the choices must hold together too. */
export const EVERY_CHOICE: Mutant = {
  name: "honest.every-choice",
  breaks: `Allowed: every honest variant's choice at once (${HONEST_VARIANTS.filter((v) => !LEFT_OUT.includes(v.name)).length} of them; the 404 for another store's key, not also the 403), each allowed by the spec sentence or spec-choices row its variant quotes.`,
  caughtBy: [],
  wrap: (next) => {
    const inner = HONEST_VARIANTS.filter((v) => !OUTERMOST.includes(v.name) && !LEFT_OUT.includes(v.name));
    const outer = OUTERMOST.map((name) => HONEST_VARIANTS.find((v) => v.name === name) as Mutant);
    return [...inner, ...outer].reduce((handler, v) => v.wrap(handler), next);
  },
};
