// Finds text in everything an object reaches: own properties (symbols included), Map and Set entries,
// array items and byte buffers. What only a closure holds is out of its reach; the simulator keeps its
// state in objects, which is what a test of "nothing kept" needs to search.

/** The paths (`world.idempotency.entries[3].response.body`) under which a string containing `needle` is reachable from `root`. */
export function reachableText(root: unknown, needle: string, limit = 5): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const bytes = Buffer.from(needle, "utf8");
  const stack: [unknown, string][] = [[root, "root"]];
  while (stack.length > 0 && found.length < limit) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === "string") {
      if (value.includes(needle)) found.push(path);
      continue;
    }
    if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value)) continue;
    seen.add(value);
    if (typeof value === "function") continue;
    if (ArrayBuffer.isView(value)) {
      if (Buffer.from(value.buffer, value.byteOffset, value.byteLength).includes(bytes)) found.push(path);
      continue;
    }
    if (value instanceof Map) {
      let i = 0;
      for (const [k, v] of value) {
        stack.push([k, `${path}.<key ${i}>`], [v, `${path}.<${String(typeof k === "string" ? k : i)}>`]);
        i += 1;
      }
    } else if (value instanceof Set) {
      let i = 0;
      for (const v of value) stack.push([v, `${path}.<item ${i++}>`]);
    }
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && "value" in descriptor) stack.push([descriptor.value, `${path}.${String(key)}`]);
    }
  }
  return found;
}
