import type { Mutant } from "../base.js";
import { errorVariants } from "./errors.js";
import { oauthVariants } from "./oauth.js";
import { routeVariants } from "./routes.js";
import { salesVariants } from "./sales.js";
import { shapeVariants } from "./shapes.js";
import { tokenVariants } from "./tokens.js";
import { writeVariants } from "./writes.js";

// Honest variants: servers that choose differently where the spec leaves the choice open. Each is a
// wrapper in the Mutant format with `caughtBy: []`; its `breaks` says "Allowed: ..." and quotes the
// sentence (or the docs/spec-choices.md row) that leaves the choice open. The whole suite must pass
// against every one of them (conformance/honest.test.ts): a failure there is a rule asking for more
// than the spec says. A server with other transport choices (latency, Connection: close, chunked
// bodies) is not a wrapper: transport.ts serves it over HTTP.
//
// Choices tried and left out, because the spec does not leave them open:
// - has_more true on a full last page (the next page empty): has_more is read by its name, rows
//   follow the page (pagination.has-more-exactly-full; two mutants are this server).
// - upper-case UUIDs in answers: RFC 9562 4 has UUIDs "output as lowercase characters".
// - Idempotent-Replayed: True: the spec writes the header as "Idempotent-Replayed: true".
// - 403 INSUFFICIENT_SCOPE for another store's credential: GET /me and the other scope-free routes
//   cannot lack a scope, so the 403 variant answers RETAILER_NOT_FOUND.
// - RateLimit in the IETF draft's structured form (`"default";r=119;t=60`): it renames the fields,
//   and Limits names them: "RateLimit (fields limit, remaining, reset in seconds)".
// - A replayed client error without Idempotent-Replayed (spec-choices lets the suite accept it):
//   Limits says "A retry with the same key and same body returns the same status and data with
//   header Idempotent-Replayed: true. A client error replays the same failure.", so a replayed
//   failure is a replay like any other.
//
// Choices open in the spec that no wrapper here makes, because a wrapper cannot make them without
// requests of its own that the limits would count, or state the simulator does not show:
// - a write that changes nothing giving a new version (products, customers);
// - GET /openapi.json without a credential (the simulator counts it as a failed authentication);
// - every field error listed past the simulator's cap; another order of inventory refusals;
// - a batch adjust line without reason_id; no direction check of a reason on adjustments.

export const HONEST_VARIANTS: readonly Mutant[] = [
  ...shapeVariants,
  ...tokenVariants,
  ...errorVariants,
  ...writeVariants,
  ...salesVariants,
  ...oauthVariants,
  ...routeVariants,
];

/**
 * Wrappers that answer from the stored state (versions, SKUs, reasons as the simulator keeps them):
 * composed innermost, where the answers around them are still the simulator's.
 */
const INNERMOST = [
  "honest.reasons-no-scope",
  "honest.product-tag-version",
  "honest.batch-sku-own",
  "honest.sku-lookup-any-case",
  "honest.disabled-reasons-hidden",
  "honest.walk-in-sales-null",
];
/** Wrappers that rewrite what others read (ids, message texts, the JSON text): composed outermost. */
const OUTERMOST = ["honest.other-ids", "honest.other-messages", "honest.json-layout"];
/** Another store's key answers 404 in the composite, so the 403 variant has nothing left to change. */
const LEFT_OUT = ["honest.foreign-credential-403"];

const named = (names: readonly string[]): Mutant[] =>
  names.map((name) => HONEST_VARIANTS.find((v) => v.name === name) as Mutant);

/** One server making every choice above at once: the choices must hold together too. */
export const EVERY_CHOICE: Mutant = {
  name: "honest.every-choice",
  breaks: `Allowed: every honest variant's choice at once (${HONEST_VARIANTS.filter((v) => !LEFT_OUT.includes(v.name)).length} of them; the 404 for another store's key, not also the 403), each allowed by the spec sentence or spec-choices row its variant quotes.`,
  caughtBy: [],
  wrap: (next) => {
    const placed = [...INNERMOST, ...OUTERMOST, ...LEFT_OUT];
    const middle = HONEST_VARIANTS.filter((v) => !placed.includes(v.name));
    return [...named(INNERMOST), ...middle, ...named(OUTERMOST)].reduce((handler, v) => v.wrap(handler), next);
  },
};
