import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import type { Rule } from "../../rule.js";
import { rule, SPEC } from "../rule.js";
import { ACCESS_COMMANDS, CLOCK_COMMANDS, IDLE_COMMANDS, PROBLEM_COMMANDS } from "./access.js";
import { CATALOG_COMMANDS, CHANGE_COMMANDS } from "./catalog.js";
import { CUSTOMER_COMMANDS, SALES_COMMANDS, SALES_READS } from "./customers.js";
import { INVENTORY_COMMANDS, STOCK_STORIES } from "./inventory.js";
import { OAUTH_COMMANDS } from "./oauth.js";
import { type Command, Session } from "./session.js";

// Generated sequences over the whole API, compared answer by answer with the model (conformance/model/):
// the rules of the other areas steer into situations a random walk reaches rarely; these walk the API
// at random, with edge values and requests with one or two problems, and judge every answer on what
// the spec fixes. A divergence fails the rule with the shortest sequence that still diverges.

/** Sequences of commands; shorter against a live target without a control plane, where every request waits for its window. */
function sequences(
  name: string,
  commands: fc.Arbitrary<Command>,
  options: { cost: number; needs?: Rule["needs"]; title: string; section: string; quote: string },
): Rule {
  return rule({
    id: `model.${name}`,
    area: "Model",
    title: options.title,
    spec: { section: options.section, quote: options.quote },
    cost: options.cost,
    ...(options.needs ? { needs: options.needs } : {}),
    leniency:
      "Answers are compared with the model's only on what the spec fixes (src/contract/projection.ts); choices the spec leaves open are learnt and held.",
    async run(ctx: RuleContext) {
      const session = new Session(ctx);
      await session.load();
      const staging = !ctx.hasControl;
      // --runs sequences; without a control plane, where every request waits for its window, at most 6 of 6 commands.
      await ctx.property(
        fc.array(commands, { minLength: 1, maxLength: staging ? 6 : 24, size: "max" }),
        async (steps) => {
          for (const step of steps) await step.run(session);
        },
        staging ? Math.min(ctx.run.runs, 6) : ctx.run.runs,
      );
    },
  });
}

export const modelRules: readonly Rule[] = [
  sequences(
    "catalog",
    fc.oneof({ weight: 3, arbitrary: CATALOG_COMMANDS }, { weight: 2, arbitrary: CHANGE_COMMANDS }),
    {
      cost: 700,
      title: "Generated catalog sequences answer as the model predicts",
      section: SPEC.what,
      quote:
        "A product is one document. Reads return the full nested document, and create and update accept the same document.",
    },
  ),
  sequences(
    "inventory",
    fc.oneof(
      { weight: 3, arbitrary: INVENTORY_COMMANDS },
      { weight: 2, arbitrary: STOCK_STORIES },
      { weight: 1, arbitrary: CATALOG_COMMANDS },
    ),
    {
      cost: 700,
      title: "Generated stock sequences answer as the model predicts",
      section: SPEC.inventory,
      quote: "PUT sets an absolute level.",
    },
  ),
  sequences("customers", fc.oneof({ weight: 3, arbitrary: CUSTOMER_COMMANDS }, { weight: 1, arbitrary: SALES_READS }), {
    cost: 500,
    title: "Generated customer sequences answer as the model predicts",
    section: SPEC.deletes,
    quote: "customer | marked deleted; name, email, phone, address and other personal details scrubbed",
  }),
  sequences(
    "sales",
    fc.oneof(
      { weight: 3, arbitrary: SALES_COMMANDS },
      { weight: 1, arbitrary: CUSTOMER_COMMANDS },
      { weight: 1, arbitrary: CATALOG_COMMANDS },
    ),
    {
      cost: 500,
      needs: { control: true },
      title: "Generated sales sequences (sales made in the back office) answer as the model predicts",
      section: SPEC.what,
      quote: "Sales and refunds, read only.",
    },
  ),
  sequences(
    "access",
    fc.oneof(
      { weight: 3, arbitrary: ACCESS_COMMANDS },
      { weight: 3, arbitrary: PROBLEM_COMMANDS },
      { weight: 1, arbitrary: CATALOG_COMMANDS },
      { weight: 1, arbitrary: INVENTORY_COMMANDS },
    ),
    {
      cost: 500,
      title: "Generated requests with every kind of credential, scope, key and replay answer as the model predicts",
      section: SPEC.scopes,
      quote: "A call without the needed scope answers 403 INSUFFICIENT_SCOPE.",
    },
  ),
  sequences("oauth", fc.oneof({ weight: 3, arbitrary: OAUTH_COMMANDS }, { weight: 1, arbitrary: CUSTOMER_COMMANDS }), {
    cost: 500,
    needs: { control: true },
    title: "Generated OAuth consents, exchanges, refreshes and uses answer as the model predicts",
    section: SPEC.auth,
    quote: "OAuth 2.0 authorization code flow.",
  }),
  sequences(
    "time",
    fc.oneof(
      { weight: 2, arbitrary: CLOCK_COMMANDS },
      { weight: 2, arbitrary: ACCESS_COMMANDS },
      { weight: 3, arbitrary: OAUTH_COMMANDS },
      { weight: 1, arbitrary: IDLE_COMMANDS },
      { weight: 1, arbitrary: CATALOG_COMMANDS },
      { weight: 1, arbitrary: SALES_COMMANDS },
    ),
    {
      cost: 500,
      needs: { control: true, clock: true },
      title: "Generated sequences with the clock moved past the spec's boundaries answer as the model predicts",
      section: SPEC.auth,
      quote: "A code is valid for 10 minutes and works once.",
    },
  ),
];
