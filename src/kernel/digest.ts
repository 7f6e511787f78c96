import { createHash, timingSafeEqual } from "node:crypto";

/** Credentials are stored and looked up by digest, never by plaintext. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Compares two secrets in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a), "hex");
  const y = Buffer.from(sha256(b), "hex");
  return timingSafeEqual(x, y);
}
