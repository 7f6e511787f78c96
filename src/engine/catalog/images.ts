import { apiError, invalid, type ApiError } from "../../contract/errors.js";
import { fail, ok, type Result } from "../../kernel/result.js";
import type { Rng } from "../../kernel/random.js";

// Spec, Product write rules 7: image_url (https) is downloaded once and stored as the service's own
// copy. The simulator never uses the network: what a download of a URL does is set through the
// control plane (POST /_sim/images), `ok` by default.

export const IMAGE_OUTCOMES = ["ok", "fail", "busy"] as const;
export type ImageOutcome = (typeof IMAGE_OUTCOMES)[number];

/**
 * Spec, Limits: concurrent image downloads are shared across the API, their number not shown
 * (docs/spec-choices.md). The simulator's downloads take no time, so only a download held by a hold
 * fault is ever in flight; with room for one, a held download makes every other image write busy.
 */
export const IMAGE_DOWNLOAD_CAPACITY = 1;

/** Image URLs one sandbox holds an outcome for, at most (docs/interfaces.md, Control plane). */
export const MAX_IMAGE_OUTCOMES = 10_000;

export class ImageRegistry {
  private readonly outcomes = new Map<string, ImageOutcome>();
  /** Image ids of every stored copy, served under {api_root}/images/. */
  readonly stored = new Set<string>();
  /** Downloads in flight (held mid-download). */
  downloading = 0;

  /** Sets what a download of `url` does; false (nothing set) when the URL is new and MAX_IMAGE_OUTCOMES are held. */
  setOutcome(url: string, outcome: ImageOutcome): boolean {
    if (!this.outcomes.has(url) && this.outcomes.size >= MAX_IMAGE_OUTCOMES) return false;
    this.outcomes.set(url, outcome);
    return true;
  }

  /** Snapshot: the stored copies and the outcomes set, in the order they were made and set. */
  records(): { stored: string[]; outcomes: [string, ImageOutcome][] } {
    return { stored: [...this.stored], outcomes: [...this.outcomes] };
  }

  /** Snapshot restore, into an empty registry: what `records` gave. */
  restore(records: { stored: readonly string[]; outcomes: readonly (readonly [string, ImageOutcome])[] }): void {
    for (const id of records.stored) this.stored.add(id);
    for (const [url, outcome] of records.outcomes) this.outcomes.set(url, outcome);
  }

  /**
   * What a download of `url` does: the outcome set for it, else `ok`, except on a host under the
   * reserved `.invalid` name (RFC 6761), which no resolver ever finds: that download fails, as it would
   * on any real service, so a client can provoke IMAGE_FETCH_FAILED without a control plane.
   */
  outcomeOf(url: string): ImageOutcome {
    const set = this.outcomes.get(url);
    if (set) return set;
    return /^https:\/\/([^/?#@]*@)?[^/?#:]*\.invalid\.?(:\d+)?([/?#]|$)/i.test(url) ? "fail" : "ok";
  }
}

export const imageUrl = (apiRoot: string, imageId: string, size: "original" | "thumb") =>
  `${apiRoot}/images/${imageId}/${size}.png`;

/** The image id in one of the simulator's own image URLs, whatever host it was read through. */
export function ownImageId(url: string): string | undefined {
  const match = /^https?:\/\/[^/]+\/images\/([0-9a-f-]{36})\/(?:original|thumb)\.png$/.exec(url);
  return match?.[1];
}

/** What a write's image_url does: keep the current image, store a new copy, or fail the download. */
export type ImageDecision =
  | { readonly kind: "keep" }
  | { readonly kind: "stored"; readonly imageId: string }
  | { readonly kind: "failed" };

export function decideImage(
  images: ImageRegistry,
  ids: Rng,
  currentImageId: string | null,
  url: string | null | undefined,
  countWrite: () => ApiError | undefined,
): Result<ImageDecision, ApiError> {
  // rule catalog.image-null-leaves-image: null or omitted leaves the image unchanged; an image cannot be removed.
  if (url === undefined || url === null) return ok({ kind: "keep" });
  // Sending back the service's own URL changes nothing; another of its stored copies is reused as is.
  const own = ownImageId(url);
  if (own !== undefined && own === currentImageId) return ok({ kind: "keep" });
  if (own !== undefined && images.stored.has(own)) return ok({ kind: "stored", imageId: own });
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== "https:") return fail(invalid("image_url", "must be an https address"));
  // rule limits.image-writes: product writes including image_url, 10 per minute per credential.
  const limited = countWrite();
  if (limited) return fail(limited);
  const outcome = images.downloading >= IMAGE_DOWNLOAD_CAPACITY ? "busy" : images.outcomeOf(url);
  if (outcome === "busy") {
    return fail({
      ...apiError("RATE_LIMITED", "Too many image imports are running; retry shortly. Nothing was written."),
      retryAfter: 1,
      branch: "limits.image-busy",
    });
  }
  // rule catalog.image-fetch-failed: a failed download still saves the write; it answers 422 IMAGE_FETCH_FAILED with the saved product (http/pipeline.ts).
  if (outcome === "fail") return ok({ kind: "failed" });
  const imageId = ids.uuid();
  images.stored.add(imageId);
  return ok({ kind: "stored", imageId });
}

/** Whether a write with this image_url would download it (an https address, not one of the service's stored copies). */
export function wouldDownload(images: ImageRegistry, url: unknown): boolean {
  if (typeof url !== "string") return false;
  const own = ownImageId(url);
  if (own !== undefined && images.stored.has(own)) return false;
  return url.startsWith("https://");
}
