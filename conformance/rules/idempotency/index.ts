import type { Rule } from "../../rule.js";
import { recordRules } from "./records.js";
import { replayRules } from "./replay.js";

// The Idempotency area (spec, Limits: Idempotency): replays and refusals on POST /products
// (replay.ts), and what is remembered where and for how long (records.ts).

export const idempotencyRules: readonly Rule[] = [...replayRules, ...recordRules];
