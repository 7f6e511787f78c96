import { redactHeader } from "./redact.js";

// An exchange's headers as a journal entry keeps them (exchange.ts): names and values in one array that
// the entry keeps for as long as it lives, and fills again for each exchange it records.

/**
 * Header names and values in pairs: name, value, name, value... (the first `count` pairs; the places
 * past them hold ""). Filled again in place, so a recorded exchange's headers cost the collector only
 * the strings that are new, and a name or value equal to the one at the same place of another entry's
 * pairs (the journal's newest) is kept as that entry's string, the way HTTP/2's header compression
 * refers to a value already sent: the request's own string then dies young.
 */
export class HeaderPairs {
  private pairs: string[] = [];
  private count = 0;

  /** Fills the pairs with `headers` (each value redacted when `redact`); the characters of their names and values. */
  fill(headers: Readonly<Record<string, string | undefined>>, redact: boolean, prior: HeaderPairs | undefined): number {
    const { pairs } = this;
    const first = pairs.length === 0;
    const same = prior?.pairs;
    const sameEnd = prior === undefined ? 0 : 2 * prior.count;
    let at = 0;
    let chars = 0;
    for (const name in headers) {
      const given = headers[name];
      if (given === undefined) continue;
      const value = redact ? redactHeader(name, given) : given;
      chars += name.length + value.length;
      if (same !== undefined && at < sameEnd && same[at] === name) {
        pairs[at] = same[at] as string;
        const before = same[at + 1] as string;
        pairs[at + 1] = before === value ? before : value;
      } else {
        pairs[at] = name;
        pairs[at + 1] = value;
      }
      at += 2;
    }
    this.clearFrom(at);
    // The first fill keeps an array of the exact length (one filled by growing has room for more).
    if (first && at > 0) this.pairs = pairs.slice();
    this.count = at / 2;
    return chars;
  }

  /** Lets go of every name and value. */
  clear(): void {
    this.clearFrom(0);
    this.count = 0;
  }

  /** Clears the places from `at` to the end of the pairs held before (they hold "" past the pairs). */
  private clearFrom(at: number): void {
    for (let i = at; i < 2 * this.count; i++) this.pairs[i] = "";
  }

  /** The pairs as a record. */
  record(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = 0; i < 2 * this.count; i += 2) out[this.pairs[i] as string] = this.pairs[i + 1] as string;
    return out;
  }
}
