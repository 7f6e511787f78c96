// npm run build:bin: the command line as one esbuild bundle, dist/bin/retail-sim.js, with chunks that load
// only when needed (the conformance suite; the compile cache's entry loads the rest). docs/performance.md,
// Cold start.
import { chmodSync, rmSync } from "node:fs";
import { build } from "esbuild";

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
  // Bundled CommonJS dependencies require Node's built-ins (esbuild's `__require`): an ES module has no
  // `require` of its own.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: "warning",
});
chmodSync("dist/bin/retail-sim.js", 0o755);
