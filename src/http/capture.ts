import { bodyParts, bodySource } from "./respond.js";
import type { SimResponse } from "./types.js";

// The start of an exchange's bodies as the journal captures them when it is recorded, and decodes them
// when it is read (exchange.ts).

const utf8 = new TextDecoder();

/**
 * The start of a body as captured when the exchange is answered, without decoding it: a short string
 * as it is, bytes (a copy when the body is longer than the cap, so the rest can be collected), or the
 * parts of a page assembled from cached rows that cover the cap. Decoded only when the journal is read.
 */
export type Captured = {
  readonly head: string | Uint8Array | readonly Uint8Array[] | null;
  readonly bytes: number;
  /** The length of what `head` holds (characters or bytes). */
  readonly held: number;
  /** True when `head` is the final, redacted text (and `bytes` the body's whole length). */
  readonly text?: true;
};

export const NO_BODY: Captured = { head: null, bytes: 0, held: 0 };

export function capture(body: Uint8Array | string | null, cap: number): Captured {
  if (body === null) return NO_BODY;
  if (typeof body === "string") {
    if (body.length <= cap) return { head: body, bytes: -1, held: body.length };
    const head = Buffer.from(body.slice(0, cap));
    return { head, bytes: Buffer.byteLength(body), held: head.length };
  }
  // A copy (a view would keep the whole body alive).
  const head = body.length > cap ? Uint8Array.prototype.slice.call(body, 0, cap) : body;
  return { head, bytes: body.length, held: head.length };
}

export function captureAnswer(response: SimResponse, cap: number): Captured {
  const parts = bodySource(response);
  if (!parts) return capture(response.body, cap);
  // The whole body within the cap (every answer joined from its parts is): its own list of parts.
  if (parts.length <= cap) return { head: parts.parts, bytes: parts.length, held: parts.length };
  const head: Uint8Array[] = [];
  let taken = 0;
  for (const part of parts.parts) {
    if (taken >= cap) break;
    head.push(part);
    taken += part.length;
  }
  return { head, bytes: parts.length, held: taken };
}

/** The start of the answer's text: its body when already a string, else what was captured, decoded. */
export function answerText(response: SimResponse, answer: Captured, cap: number): string {
  if (bodyParts(response) === undefined) {
    const { body } = response;
    if (typeof body === "string") return body.length <= cap ? body : body.slice(0, cap);
  }
  return decoded(answer, cap).text ?? "";
}

/** The captured start as text and the body's whole length in bytes. */
export function decoded(captured: Captured, cap: number): { text: string | null; bytes: number } {
  const { head } = captured;
  if (head === null) return { text: null, bytes: 0 };
  if (captured.text) return { text: head as string, bytes: captured.bytes };
  if (typeof head === "string") return { text: cut(head, cap), bytes: Buffer.byteLength(head) };
  const bytes = head instanceof Uint8Array ? head : Buffer.concat(head as Uint8Array[]);
  return { text: utf8.decode(bytes.subarray(0, cap)), bytes: captured.bytes };
}

/** A text's first `cap` bytes (UTF-8). */
export const cut = (text: string, cap: number): string =>
  text.length <= cap / 3 || Buffer.byteLength(text) <= cap ? text : utf8.decode(Buffer.from(text).subarray(0, cap));

/** Held bytes count twice: a read decodes them into text as long, while it lasts (UTF-16 at worst). */
export const capturedBytes = (c: Captured): number => 2 * c.held;

/** What a capture holds of a body's start (an entry keeps it beside the body's whole length, -1: the start's own). */
export type Head = Captured["head"];
/** A capture again from what an entry kept of it, for decoding (`held` is not needed there). */
export const kept = (head: Head, bytes: number, final: boolean): Captured =>
  head === null ? NO_BODY : final ? { head, bytes, held: 0, text: true } : { head, bytes, held: 0 };
