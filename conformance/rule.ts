import type { RuleContext } from "./context.js";
import type { RuleInfo } from "./types.js";

/** A rule of the spec: its declaration (types.ts) and what it does with a context of the run. */
export interface Rule extends RuleInfo {
  run(ctx: RuleContext): Promise<void>;
}
