import { pathParams } from "./path.js";

// A segment trie built from the operations tables: static segments first, then a parameter.
// It replaces any switch on method and path.

/** Where the API's operations live: under each store's base URL, `{api_root}/{store_prefix}/v1`. */
export const STORE_BASE = "/{store_prefix}/v1";

/** The method of a route that answers every method its path has no route of its own for. */
export const ANY_METHOD = "*";

interface Node<T> {
  readonly statics: Map<string, Node<T>>;
  param?: { readonly name: string; readonly node: Node<T> };
  readonly routes: Map<string, T>;
}

export interface Match<T> {
  readonly route: T;
  readonly params: Record<string, string>;
}

const newNode = <T>(): Node<T> => ({ statics: new Map(), routes: new Map() });

export class Router<T> {
  private readonly root: Node<T> = newNode();

  add(method: string, path: string, route: T): this {
    let node = this.root;
    const names = pathParams(path);
    for (const segment of path.split("/").slice(1)) {
      if (segment.startsWith("{")) {
        const name = names.shift() as string;
        if (node.param && node.param.name !== name)
          throw new Error(`route ${path}: parameter {${name}} clashes with {${node.param.name}}`);
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.has(method)) throw new Error(`route ${method} ${path} declared twice`);
    node.routes.set(method, route);
    return this;
  }

  /** Adds every entry of a table (operations, control operations) at `base` followed by its path. */
  addTable<E extends { readonly method: string; readonly path: string }>(
    table: readonly E[],
    base: string,
    route: (entry: E) => T,
  ): this {
    for (const entry of table) this.add(entry.method, `${base}${entry.path}`, route(entry));
    return this;
  }

  /** The route for a method and a percent-encoded path, or undefined (an unknown path or method). */
  match(method: string, path: string): Match<T> | undefined {
    if (!path.startsWith("/")) return undefined;
    const segments = path.slice(1).split("/");
    // Percent-decoding only where there is something to decode (most paths have nothing).
    if (path.includes("%")) {
      for (let i = 0; i < segments.length; i++) {
        try {
          segments[i] = decodeURIComponent(segments[i] as string);
        } catch {
          return undefined;
        }
      }
    }
    const params: Record<string, string> = {};
    const found = this.walk(this.root, segments, 0, method, params);
    return found === undefined ? undefined : { route: found, params };
  }

  private walk(
    node: Node<T>,
    segments: string[],
    i: number,
    method: string,
    params: Record<string, string>,
  ): T | undefined {
    if (i === segments.length) return node.routes.get(method) ?? node.routes.get(ANY_METHOD);
    const segment = segments[i] as string;
    const next = node.statics.get(segment);
    if (next) {
      const found = this.walk(next, segments, i + 1, method, params);
      if (found !== undefined) return found;
    }
    if (node.param && segment !== "") {
      const found = this.walk(node.param.node, segments, i + 1, method, params);
      if (found !== undefined) {
        params[node.param.name] = segment;
        return found;
      }
    }
    return undefined;
  }
}

/** The API's operations by method and path as sent (`/demo/v1/products/...`), for a table of operations. */
export function apiRouter<O extends { readonly method: string; readonly path: string }>(
  operations: readonly O[],
): Router<O> {
  return new Router<O>().addTable(operations, STORE_BASE, (op) => op);
}

/** A match's own parameters: the store prefix of the base URL is not one of the operation's. */
export function operationParams(params: Readonly<Record<string, string>>): Record<string, string> {
  const { store_prefix: _, ...own } = params;
  return own;
}
