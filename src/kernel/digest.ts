import * as crypto from "node:crypto";

const { createHash, timingSafeEqual } = crypto;
/** One-shot hashing (Node 20.12+): no Hash object per call, which matters once per request. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;

/** Credentials are stored and looked up by digest, never by plaintext. */
export function sha256(text: string): string {
  return oneShot ? oneShot("sha256", text, "hex") : createHash("sha256").update(text).digest("hex");
}

/** Compares two secrets in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a), "hex");
  const y = Buffer.from(sha256(b), "hex");
  return timingSafeEqual(x, y);
}
