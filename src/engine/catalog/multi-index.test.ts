import { describe, expect, it } from "vitest";
import { MultiIndex } from "./state.js";

describe("docs/architecture.md, State: the catalog's reverse indexes (MultiIndex) answer as sets in the order ids were first added", () => {
  it("ids added only (an array until read) read as a set without repeats, in first-added order", () => {
    const index = new MultiIndex();
    for (const id of ["b", "a", "b", "c"]) index.add("tag", id);
    index.add("other", "z");
    expect(index.entries()).toEqual([
      ["tag", ["b", "a", "c"]],
      ["other", ["z"]],
    ]);
    expect([...index.get("tag")]).toEqual(["b", "a", "c"]);
    expect(index.get("tag").size).toBe(3);
    expect(index.get("none").size).toBe(0);
  });

  it("a removal, before or after a read, takes the id out; a key left without ids is dropped; later adds keep order", () => {
    const index = new MultiIndex();
    for (const id of ["a", "b", "c"]) index.add("k", id);
    index.remove("k", "b");
    index.add("k", "d");
    index.add("k", "a");
    expect([...index.get("k")]).toEqual(["a", "c", "d"]);
    for (const id of ["a", "c", "d"]) index.remove("k", id);
    expect(index.entries()).toEqual([]);
    index.remove("missing", "a");
    expect(index.entries()).toEqual([]);
  });
});
