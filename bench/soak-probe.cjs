// Preloaded into the soak's simulator process (node --expose-gc --require bench/soak-probe.cjs): over the
// IPC channel the soak opened, "heap" answers the heap after a full collection, the resident size then,
// and how long the collection took.
process.on("message", (message) => {
  if (message !== "heap") return;
  const t0 = performance.now();
  globalThis.gc();
  const gcMs = performance.now() - t0;
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.send({ rss, heapUsed, heapTotal, external, arrayBuffers, gcMs });
});
