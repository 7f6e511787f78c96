import type { ApiError } from "../../contract/errors.js";
import type { AreaContext } from "../context.js";
import type { ImageRegistry } from "./images.js";

/** What a catalog operation needs: the area's context, the images the simulator stored, and the image-write limit. */
export interface CatalogContext extends AreaContext {
  readonly images: ImageRegistry;
  /** Counts one product write that imports an image; the refusal when the limit is reached. */
  readonly countImageWrite: () => ApiError | undefined;
}
