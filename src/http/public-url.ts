import { fail, ok, type Result } from "../kernel/result.js";

/**
 * docs/interfaces.md, Command line (`--public-url`) and Library (`publicUrl`): the origin every URL the simulator
 * writes starts with, in place of the request's own. It must be an http or https origin: a scheme, a host and an
 * optional port, nothing after them but an optional `/`. Answers the origin as the URL standard spells it
 * (`HTTP://Sim.Test:80/` is `http://sim.test`).
 */
export function publicOrigin(text: string): Result<string, string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(`"${text}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return fail(`"${text}" is not an http or https URL`);
  if (url.username !== "" || url.password !== "") return fail(`"${text}" carries credentials`);
  // The parser drops an empty query or fragment; the text must not have them either.
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || /[?#]/.test(text))
    return fail(`"${text}" has a path, query or fragment; give an origin such as http://127.0.0.1:4747`);
  return ok(url.origin);
}
