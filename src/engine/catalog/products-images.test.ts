// Tests of product images against the spec (retail-api-v1.md): "Product write rules" 7 (image_url is imported;
// IMAGE_FETCH_FAILED saves the product) and "Limits" (product writes with image_url, 10 per minute per
// credential); plus the recorded choices of docs/spec-choices.md ("Images": image URLs, the /_sim/images
// outcomes, the reserved .invalid host).
// A failed download on a create and the 10 image writes per minute are checked by the conformance rules of the
// catalog and of the limits, not here.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import {
  P,
  UUID,
  IMAGE,
  bySku,
  read,
  heldCursor,
  expectNothingWritten,
  newer,
  setImage,
} from "../../test-support/products.js";

describe("Write rule 7 and choices (Images): image_url is imported and served as the service's own copy", () => {
  it("an https image_url on create is stored: image_url/image_thumb_url point at http://sim.test/images/<id>/, both served as image/png; the given address is not kept", async () => {
    const sim = makeSim();
    const given = "https://cdn.example.com/photos/lamp.png";
    const reply = await call(sim, "POST", P, { body: { name: "Lamp", retail_price: 3000, image_url: given } });
    expect(reply.status).toBe(201);
    const match = IMAGE.exec(reply.json.data.image_url);
    expect(match, reply.json.data.image_url).not.toBeNull();
    const imageId = match![1]!;
    expect(imageId).toMatch(UUID);
    expect(reply.json.data.image_thumb_url).toBe(`http://sim.test/images/${imageId}/thumb.png`);
    expect(reply.text).not.toContain("cdn.example.com");
    expect(JSON.stringify(await read(sim, reply.json.data.id))).not.toContain("cdn.example.com");
    for (const url of [reply.json.data.image_url, reply.json.data.image_thumb_url]) {
      const res = await sim.fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    }
  });

  it("null or omitted image_url leaves the image; sending back the product's own URL (original, thumb, another host) changes nothing", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const own = tote.image_url as string;
    const bodies = [
      { image_url: null },
      { name: "Canvas Tote" },
      { image_url: own },
      { image_url: tote.image_thumb_url },
      { image_url: own.replace("http://sim.test", "https://api.example.net") },
    ];
    for (const body of bodies) {
      const reply = await call(sim, "PATCH", `${P}/${tote.id}`, { body });
      expect(reply.status, `${JSON.stringify(body)}: ${reply.text}`).toBe(200);
      expect(reply.json.data).toStrictEqual(tote);
    }
    const renamed = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "Tote", image_url: null } });
    expect(renamed.json.data).toMatchObject({ name: "Tote", image_url: own, image_thumb_url: tote.image_thumb_url });
  });

  it("a new https address replaces the image with a new copy, and the version moves", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const reply = await call(sim, "PATCH", `${P}/${tote.id}`, {
      body: { image_url: "https://cdn.example.com/tote-2.png" },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.data.image_url).toMatch(IMAGE);
    expect(reply.json.data.image_url).not.toBe(tote.image_url);
    expect(newer(reply.json.data.version, tote.version)).toBe(true);
  });

  it("an http:// address answers 400 VALIDATION_FAILED naming image_url; nothing is written", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const cursor = await heldCursor(sim);
    expectError(
      await call(sim, "POST", P, {
        body: { name: "Plain http", retail_price: 100, image_url: "http://cdn.example.com/a.png" },
      }),
      400,
      "VALIDATION_FAILED",
      "image_url",
    );
    expectError(
      await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "X", image_url: "http://cdn.example.com/a.png" } }),
      400,
      "VALIDATION_FAILED",
      "image_url",
    );
    await expectNothingWritten(sim, cursor);
  });

  it("a host under the reserved .invalid name (RFC 6761) never resolves: its download fails without any outcome set, 422 IMAGE_FETCH_FAILED with the product saved; an outcome set for it still wins", async () => {
    const sim = makeSim();
    const reply = await call(sim, "POST", P, {
      body: {
        sku: "NOWHERE-IMG",
        name: "Nowhere",
        retail_price: 300,
        image_url: "https://images.nowhere.invalid/a.png",
      },
    });
    // Spec, Product write rules 7: the one refusal that carries the saved product in `data` next to `error`.
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.json).sort()).toEqual(["data", "error"]);
    expect(reply.json.error).toStrictEqual({ code: "IMAGE_FETCH_FAILED", message: expect.any(String) });
    expect(reply.json.data).toMatchObject({ sku: "NOWHERE-IMG", image_url: null, image_thumb_url: null });
    expect((await bySku(sim, "NOWHERE-IMG")).id).toBe(reply.json.data.id);
    // Only the host counts: ".invalid" in the path is an ordinary address.
    const elsewhere = await call(sim, "POST", P, {
      body: {
        sku: "PATH-INVALID-IMG",
        name: "Path",
        retail_price: 300,
        image_url: "https://cdn.example.com/x.invalid/a.png",
      },
    });
    expect(elsewhere.status).toBe(201);
    await setImage(sim, "https://ok.invalid/b.png", "ok");
    const set = await call(sim, "POST", P, {
      body: { sku: "SET-OK-IMG", name: "Set ok", retail_price: 300, image_url: "https://ok.invalid/b.png" },
    });
    expect(set.status).toBe(201);
  });

  it("a failed download on an update saves the other changes and keeps the old image", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const url = "https://cdn.example.com/broken-tote.png";
    await setImage(sim, url, "fail");
    const reply = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "Tote, new name", image_url: url } });
    // Spec, Product write rules 7: the one refusal that carries the saved product in `data` next to `error`.
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.json).sort()).toEqual(["data", "error"]);
    expect(reply.json.error).toStrictEqual({ code: "IMAGE_FETCH_FAILED", message: expect.any(String) });
    expect(reply.json.data).toMatchObject({
      id: tote.id,
      name: "Tote, new name",
      image_url: tote.image_url,
      image_thumb_url: tote.image_thumb_url,
    });
    expect(await read(sim, tote.id)).toStrictEqual(reply.json.data);
  });

  it("Limits (concurrent image downloads): a busy moment (outcome busy) answers 429 RATE_LIMITED with Retry-After and writes nothing", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const url = "https://cdn.example.com/busy.png";
    await setImage(sim, url, "busy");
    const cursor = await heldCursor(sim);
    const created = await call(sim, "POST", P, {
      body: { sku: "BUSY-IMG", name: "Busy", retail_price: 100, image_url: url },
    });
    expectError(created, 429, "RATE_LIMITED");
    expect(created.headers.get("retry-after")).toBe("1");
    const patched = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "Busy tote", image_url: url } });
    expectError(patched, 429, "RATE_LIMITED");
    expect(patched.headers.get("retry-after")).toBe("1");
    await expectNothingWritten(sim, cursor);
    expect((await call(sim, "GET", `${P}?sku=BUSY-IMG`)).json.data).toEqual([]);
    expect(await read(sim, tote.id)).toStrictEqual(tote);
  });
});

// ---------------------------------------------------------------------------------------------------
