import { describe, expect, it } from "vitest";
import { CAP_NAMES, DEFAULT_CAPS, MAX_CAP, parseCapArgs, resolveCaps } from "./caps.js";

// Every store of state has a configurable bound (docs/interfaces.md, Caps); a bad cap is refused with a reason.
describe("caps", () => {
  it("resolves the defaults, with given caps in place", () => {
    expect(resolveCaps()).toEqual({ ok: true, value: DEFAULT_CAPS });
    const caps = resolveCaps({ fieldErrors: 5, idempotencyBytes: 1024 });
    expect(caps).toEqual({ ok: true, value: { ...DEFAULT_CAPS, fieldErrors: 5, idempotencyBytes: 1024 } });
  });

  it("refuses a cap that is not an integer from 1 to MAX_CAP, or unknown", () => {
    expect(resolveCaps({ fieldErrors: 0 })).toEqual({
      ok: false,
      error: `cap field-errors must be an integer from 1 to ${MAX_CAP}`,
    });
    expect(resolveCaps({ rowCache: 1.5 }).ok).toBe(false);
    expect(resolveCaps({ rowCache: MAX_CAP + 1 }).ok).toBe(false);
    expect(resolveCaps({ nope: 3 } as never)).toEqual({ ok: false, error: 'unknown cap "nope"' });
  });

  it("parses the command line's name=value pairs by their kebab-case names", () => {
    expect(parseCapArgs(["idempotency-records=10", "field-errors=3"])).toEqual({
      ok: true,
      value: { idempotencyRecords: 10, fieldErrors: 3 },
    });
    const bad = parseCapArgs(["idempotency_records=10"]);
    expect(bad.ok).toBe(false);
    expect(bad.ok ? "" : bad.error).toContain("idempotency-records, idempotency-bytes");
    expect(parseCapArgs(["field-errors=-1"]).ok).toBe(false);
    expect(Object.keys(CAP_NAMES)).toEqual(Object.keys(DEFAULT_CAPS));
  });
});
