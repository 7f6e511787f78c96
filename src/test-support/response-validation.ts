// Test harness hook (vitest setupFiles): every response any test gets from a Simulator, in process or
// over a socket, is judged against the served OpenAPI document. A response the document does not
// describe fails the test that produced it. Answers of injected faults are exempt.
import { afterEach } from "vitest";
import { checkResponse } from "../contract/response-check.js";
import { Simulator } from "../simulator.js";

const problems: string[] = [];
const handle = Simulator.prototype.handle;

Simulator.prototype.handle = async function (this: Simulator, req) {
  const res = await handle.call(this, req);
  if (!res.injected) {
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
  return res;
};

afterEach(() => {
  if (problems.length === 0) return;
  const found = problems.splice(0);
  throw new Error(`Responses the OpenAPI document does not describe:\n  ${found.join("\n  ")}`);
});
