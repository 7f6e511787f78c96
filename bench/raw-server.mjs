// The baseline: raw node:http looking a product up in a Map and JSON.stringify-ing it, and list pages
// built per request from the same documents the simulator serves. Prints its port when ready.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const products = JSON.parse(readFileSync(process.argv[2], "utf8"));
const byId = new Map(products.map((p) => [p.id, p]));
const server = createServer((req, res) => {
  const url = new URL(req.url, "http://raw");
  const one = /^\/products\/([0-9a-f-]{36})$/.exec(url.pathname);
  let body;
  if (one) {
    const p = byId.get(one[1]);
    body = p ? JSON.stringify({ data: p }) : '{"error":{"code":"NOT_FOUND","message":"x"}}';
  } else if (url.pathname === "/products") {
    const limit = Number(url.searchParams.get("limit") ?? 50);
    body = JSON.stringify({ data: products.slice(0, limit), next_cursor: "c", has_more: true });
  } else body = "{}";
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
