// Every response a test gets from a Simulator, in process or over a socket, is judged against the served OpenAPI
// document (docs/architecture.md, the response checker). The judge is installed explicitly, as the simulator's
// `onExchange` hook, by `withResponseCheck` (used by `makeSim`, `checkedSimulator` and the conformance helpers);
// the setup file `src/test-support/setup.ts` fails the test that produced a response the document does not
// describe. Answers of injected faults are exempt: no document describes them.
import { checkResponse } from "../contract/response-check.js";
import type { SimRequest, SimResponse } from "../http/types.js";
import type { SimulatorOptions } from "../simulator.js";

const problems: string[] = [];

/** The hook: records what the document says is wrong with one answered request. */
export function judgeExchange(req: SimRequest, res: SimResponse): void {
  if (res.injected) return;
  const body = typeof res.body === "string" ? res.body : null;
  problems.push(
    ...checkResponse({
      method: req.method,
      path: req.path,
      status: res.status,
      contentType: res.headers["content-type"],
      body,
    }),
  );
}

/** The options with the judge installed; a hook already given runs first. */
export function withResponseCheck(options: SimulatorOptions = {}): SimulatorOptions {
  const given = options.onExchange;
  return {
    ...options,
    onExchange: given
      ? (req, res) => {
          given(req, res);
          judgeExchange(req, res);
        }
      : judgeExchange,
  };
}

/** The problems recorded since the last call, and forgets them. */
export function takeProblems(): string[] {
  return problems.splice(0);
}

/** Throws when a response was not described since the last call (run after each test by the setup file). */
export function failOnProblems(): void {
  const found = takeProblems();
  if (found.length === 0) return;
  throw new Error(`Responses the OpenAPI document does not describe:\n  ${found.join("\n  ")}`);
}
