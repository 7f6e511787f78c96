import type { RuleContext } from "../../context.js";

// Image addresses and what their download does, set through the control plane (POST {control}/images
// {url, outcome}); shared by the image rules of the catalog and the image-write limit.

/** An https image address no other write of the run uses. */
export const imageAddress = (ctx: RuleContext): string => `https://images.rsconf.invalid/${ctx.name("image")}.png`;

/** Control: what an import of this address does (`ok`, `fail` or `busy`). */
export async function setImage(ctx: RuleContext, url: string, outcome: "ok" | "fail"): Promise<void> {
  const reply = await ctx.control("POST", "/images", { url, outcome });
  if (reply.status !== 200 && reply.status !== 201)
    throw new Error(
      `the control plane did not set the image outcome of ${url}: status ${reply.status} ${reply.text.slice(0, 200)}`,
    );
}

/** An address whose download succeeds (control plane). */
export async function okImage(ctx: RuleContext): Promise<string> {
  const url = imageAddress(ctx);
  await setImage(ctx, url, "ok");
  return url;
}
