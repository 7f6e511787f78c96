// The baseline: raw node:http answering from the same documents the simulator serves, stringified per
// request: GET /products/{id} is a Map lookup and JSON.stringify; each list page (`pages`, keyed by path
// and query as the bench asks for them) is the simulator's page, its documents stringified with its
// cursor. Reads a JSON file { products, pages }; prints its port when ready.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const { products, pages } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const byId = new Map(products.map((p) => [p.id, p]));
const pageByUrl = new Map(Object.entries(pages));
const server = createServer((req, res) => {
  // The URL is parsed as before the baseline served pages from `pages` (routing costs a server something).
  const url = new URL(req.url, "http://raw");
  const one = /^\/products\/([0-9a-f-]{36})$/.exec(url.pathname);
  let body;
  if (one) {
    const p = byId.get(one[1]);
    body = p ? JSON.stringify({ data: p }) : '{"error":{"code":"NOT_FOUND","message":"x"}}';
  } else {
    const page = pageByUrl.get(`${url.pathname}${url.search}`);
    body = page ? JSON.stringify({ data: page.data, next_cursor: page.next_cursor, has_more: page.has_more }) : "{}";
  }
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
