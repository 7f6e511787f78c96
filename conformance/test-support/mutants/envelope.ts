import type { SimRequest } from "../../../src/http/types.js";
import { API, withRaw, type Mutant } from "./base.js";
import { textOf } from "./support.js";

// Broken envelopes and request bodies (spec, What the service does): each violates one sentence.

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

export const envelopeMutants: readonly Mutant[] = [
  {
    name: "unknown-path-200",
    breaks: "Errors: an unknown path answers 404 NOT_FOUND",
    caughtBy: ["envelope.unknown-path"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return API.test(req.path) && res.status === 404
        ? { status: 200, headers: { "content-type": "application/json" }, body: '{"data":{}}' }
        : res;
    },
  },
  {
    name: "lenient-json-body",
    breaks: "What the service does 5: requests are JSON (this one's body parser reads a body it cannot parse as {})",
    caughtBy: ["envelope.json-body"],
    wrap: (next) => async (req: SimRequest) => {
      if (
        !API.test(req.path) ||
        req.body === null ||
        !(req.headers["content-type"] ?? "").includes("json") ||
        isJson(textOf(req))
      )
        return next(req);
      return next(withRaw(req, "{}"));
    },
  },
];
