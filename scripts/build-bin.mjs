// npm run build:bin: the command line as one esbuild bundle, dist/bin/retail-sim.js, with chunks that load
// only when needed (the conformance suite; the compile cache's entry loads the rest). docs/performance.md,
// Cold start.
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { isBuiltin } from "node:module";
import { build } from "esbuild";

/**
 * Node's own modules are loaded with `require`, not `import`: an ES import of a built-in module reads
 * every one of its exports, and so loads what they load lazily (on Node 24, `node:http`'s exports load
 * the whole fetch implementation, ~15 ms; `node:crypto`'s, `node:fs`'s and `node:util`'s a few ms each
 * on Node 20 and 24). Each is bundled as a one-line CommonJS module requiring it, which the bundle's
 * `require` (the banner) loads; its exports are read only when used.
 */
const requireBuiltins = {
  name: "require-builtins",
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, ({ path, kind, namespace }) =>
      kind === "import-statement" && namespace === "file" && isBuiltin(path)
        ? { path, namespace: "builtin" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "builtin" }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(path)});`,
      loader: "js",
    }));
  },
};

/**
 * string-width (yargs's and cliui's, for the help screen's layout) builds Unicode property regular
 * expressions and an `Intl.Segmenter` when it loads, about 15 ms of every start; only `--help` and usage
 * ever measure a string. Its body runs at the first call instead: its imports stay where they are, the
 * rest moves into a function called once. A version whose shape differs is bundled as it is.
 */
const lazyStringWidth = {
  name: "lazy-string-width",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, ({ path }) => {
      const source = readFileSync(path, "utf8");
      const lines = source.split("\n");
      const body = lines.findIndex(
        (line) => line.trim() !== "" && !/^import\s[^;]*?\sfrom\s+['"][^'"]+['"];?$/.test(line),
      );
      const rest = lines.slice(body).join("\n");
      const exported = "export default function stringWidth(";
      if (body < 1 || rest.split(exported).length !== 2 || /\bexport\b/.test(rest.replace(exported, ""))) {
        console.warn(`build-bin: ${path} has an unexpected shape; bundled as it is`);
        return undefined;
      }
      const contents = [
        ...lines.slice(0, body),
        "let loaded;",
        "function load() {",
        rest.replace(exported, "function stringWidth("),
        "return stringWidth;",
        "}",
        "export default function stringWidth(...args) {",
        "  loaded ??= load();",
        "  return loaded(...args);",
        "}",
      ].join("\n");
      return { contents, loader: "js" };
    });
  },
};

// Chunks of an earlier build are removed: their names change with their content.
rmSync("dist/bin", { recursive: true, force: true });
await build({
  entryPoints: { "retail-sim": "src/cli/bin.ts" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  splitting: true,
  outdir: "dist/bin",
  chunkNames: "chunks/[name]-[hash]",
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: "warning",
  plugins: [lazyStringWidth, requireBuiltins],
});
chmodSync("dist/bin/retail-sim.js", 0o755);
