#!/usr/bin/env node
import nodeModule from "node:module";

// The bundled bin's entry (scripts/build-bin.mjs). Node 22.1 and later keep the code V8 compiled for
// the bundle in Node's compile cache (NODE_COMPILE_CACHE, else a directory in the system's temporary
// one; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a start after the first compiles almost nothing.
// The rest of the command line loads only after this line, or the cache would miss it. Node 20 has no
// compile cache: the call is skipped. docs/performance.md, Cold start.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import("./main.js");
