import { describe, expect, it } from "vitest";
import { HeaderPairs } from "./header-pairs.js";
import { reachableText } from "../test-support/reachable.js";

// docs/interfaces.md, Journal and coverage: a journal entry's headers, redacted, filled again in place
// when its ring is full; nothing of the exchange before is left in them.

describe("HeaderPairs: an entry's headers, filled again in place", () => {
  it("keeps the headers given, redacted when asked, and leaves out those without a value", () => {
    const pairs = new HeaderPairs();
    const chars = pairs.fill(
      { host: "sim", authorization: "Bearer t-1", cookie: "a=b", accept: undefined },
      true,
      undefined,
    );
    expect(pairs.record()).toEqual({ host: "sim", authorization: "Bearer [redacted]", cookie: "[redacted]" });
    expect(chars).toBe("host".length + 3 + "authorization".length + 17 + "cookie".length + 10);
    const raw = new HeaderPairs();
    raw.fill({ "set-cookie": "s=1", location: "/x?code=c" }, false, undefined);
    expect(raw.record()).toEqual({ "set-cookie": "s=1", location: "/x?code=c" });
  });

  it("filled again with fewer headers, holds those alone and nothing of the ones before", () => {
    const pairs = new HeaderPairs();
    pairs.fill({ host: "sim", "x-first": "first-value", accept: "first/accept" }, true, undefined);
    pairs.fill({ host: "sim-2" }, true, undefined);
    expect(pairs.record()).toEqual({ host: "sim-2" });
    for (const gone of ["first-value", "first/accept", "x-first"]) expect(reachableText(pairs, gone)).toEqual([]);
    pairs.clear();
    expect(pairs.record()).toEqual({});
    expect(reachableText(pairs, "sim-2")).toEqual([]);
  });

  it("with the newest entry's pairs beside it, keeps the same headers whether their names line up or not", () => {
    const newest = new HeaderPairs();
    newest.fill({ host: "sim", "user-agent": "sdk/1" }, true, undefined);
    const next = new HeaderPairs();
    next.fill({ "user-agent": "sdk/1", host: "sim", accept: "*/*" }, true, newest);
    expect(next.record()).toEqual({ "user-agent": "sdk/1", host: "sim", accept: "*/*" });
    next.fill({ host: "other", "user-agent": "sdk/2" }, true, newest);
    expect(next.record()).toEqual({ host: "other", "user-agent": "sdk/2" });
  });
});
