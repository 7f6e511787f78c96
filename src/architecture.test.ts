import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// docs/architecture.md, Layers: imports point one way, kernel <- contract <- engine <- http <- simulator
// <- cli, no module reaches itself through its imports, and production code imports no test support.
// Type-only and lazy (`import()`) imports count: they are edges a reader follows too.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FOLDERS = ["src", "scenarios", "conformance"];

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

/** Every file's relative imports, resolved to files of the repository (`src/http/app.ts`). */
function importGraph(): Map<string, string[]> {
  const files = FOLDERS.flatMap(sourceFiles).sort();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), "utf8");
    const targets = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name)).replace(/\.js$/, ".ts"))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The import circles of a graph: each group of files that reach one another (a strongly connected
 * component, Tarjan's algorithm), with one circle through it to name it (`a -> b -> a`).
 */
function findCircles(graph: ReadonlyMap<string, readonly string[]>): { files: string[]; circle: string[] }[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) groups.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return groups.map((files) => ({ files, circle: circleThrough(graph, files) }));
}

/** A shortest circle from the first file of a group back to it, through the group's files. */
function circleThrough(graph: ReadonlyMap<string, readonly string[]>, files: readonly string[]): string[] {
  const start = files[0] as string;
  const inGroup = new Set(files);
  const from = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i] as string;
    for (const next of graph.get(file) ?? []) {
      if (next === start) {
        const path = [start];
        for (let at = file; at !== start; at = from.get(at) as string) path.splice(1, 0, at);
        return [...path, start];
      }
      if (inGroup.has(next) && !from.has(next)) {
        from.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start];
}

/** The folders of helpers and test doubles (the conformance mutants) that only tests may import. */
const TEST_SUPPORT = ["src/test-support/", "conformance/test-support/"];

/** A test, or a file of test support: what production code must never import. */
function isTestOnly(file: string): boolean {
  return file.endsWith(".test.ts") || TEST_SUPPORT.some((folder) => file.startsWith(folder));
}

/** Each import of test support by a production file, as `from -> to`. */
function testOnlyImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (isTestOnly(file)) continue;
    for (const target of targets) if (isTestOnly(target)) found.push(`${file} -> ${target}`);
  }
  return found;
}

const LAYERS = ["kernel", "contract", "engine", "http", "simulator", "cli"] as const;

/** The files at the top of src/, beside the layers' folders, and the layer each belongs to. */
const TOP_FILES: Readonly<Record<string, (typeof LAYERS)[number]>> = {
  "src/index.ts": "simulator",
  "src/sandboxes.ts": "simulator",
  "src/simulator.ts": "simulator",
};

/**
 * The layer of a production file of src/; tests and test support stand above every layer. A production
 * file of src/ without a layer throws, so none escapes the check.
 */
function layerOf(file: string): number | undefined {
  if (!file.startsWith("src/") || isTestOnly(file)) return undefined;
  const top = Object.hasOwn(TOP_FILES, file) ? TOP_FILES[file] : undefined;
  const layer = LAYERS.indexOf(top ?? (file.split("/")[1] as (typeof LAYERS)[number]));
  if (layer === -1 || (top === undefined && file.split("/").length < 3))
    throw new Error(`${file} has no layer (docs/architecture.md, Layers): give it one in src/architecture.test.ts`);
  return layer;
}

describe("docs/architecture.md, Layers: the import graph", () => {
  const graph = importGraph();

  it("reads the repository's files and their imports", () => {
    expect(graph.get("src/simulator.ts")).toContain("src/engine/world.ts");
    expect(graph.size).toBeGreaterThan(200);
  });

  it("finds a circle when there is one, and names it", () => {
    const circle = new Map([
      ["a.ts", ["b.ts", "d.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["d.ts"]],
      ["e.ts", ["a.ts"]],
    ]);
    expect(findCircles(circle)).toEqual([
      { files: ["d.ts"], circle: ["d.ts", "d.ts"] },
      { files: ["a.ts", "b.ts", "c.ts"], circle: ["a.ts", "b.ts", "c.ts", "a.ts"] },
    ]);
    expect(findCircles(new Map([["a.ts", ["b.ts"]]]))).toEqual([]);
  });

  it("gives every production file of src/ a layer, and refuses a file without one", () => {
    expect(layerOf("src/sandboxes.ts")).toBe(LAYERS.indexOf("simulator"));
    expect(layerOf("src/engine/world.ts")).toBe(LAYERS.indexOf("engine"));
    expect(() => layerOf("src/stray.ts")).toThrow("src/stray.ts has no layer");
    expect(() => layerOf("src/stray/file.ts")).toThrow("src/stray/file.ts has no layer");
  });

  it("has no import circles", () => {
    expect(findCircles(graph).map(({ circle }) => circle.join(" -> "))).toEqual([]);
  });

  it("points one way: no layer imports a layer above it", () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      if (from === undefined) continue;
      for (const target of targets) {
        const to = layerOf(target);
        if (to !== undefined && to > from) upward.push(`${file} (${LAYERS[from]}) -> ${target} (${LAYERS[to]})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("tells test support from production code, and finds production code that imports it", () => {
    expect(isTestOnly("conformance/test-support/mutants/index.ts")).toBe(true);
    expect(isTestOnly("src/test-support/sim.ts")).toBe(true);
    expect(isTestOnly("conformance/honest.test.ts")).toBe(true);
    expect(isTestOnly("conformance/run.ts")).toBe(false);
    expect(isTestOnly("src/simulator.ts")).toBe(false);
    const graph = new Map([
      ["conformance/run.ts", ["conformance/test-support/mutants/index.ts", "conformance/runner.ts"]],
      ["src/cli/conformance.ts", ["src/test-support/sim.ts"]],
      ["conformance/honest.test.ts", ["conformance/test-support/mutants/index.ts"]],
      ["src/test-support/conformance.ts", ["conformance/test-support/mutants/index.ts"]],
      ["conformance/test-support/mutants/base.ts", ["src/simulator.ts"]],
    ]);
    expect(testOnlyImports(graph)).toEqual([
      "conformance/run.ts -> conformance/test-support/mutants/index.ts",
      "src/cli/conformance.ts -> src/test-support/sim.ts",
    ]);
  });

  it("keeps test support out of production code: no production file imports src/test-support or conformance/test-support", () => {
    expect(graph.get("src/test-support/conformance.ts")).toContain("conformance/test-support/mutants/index.ts");
    expect(testOnlyImports(graph)).toEqual([]);
  });
});
