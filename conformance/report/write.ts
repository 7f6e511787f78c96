import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Report } from "../types.js";
import { toHtml } from "./html.js";
import { toJson } from "./json.js";
import { toJunit } from "./junit.js";
import { toMarkdown } from "./markdown.js";

export const FORMATS = ["json", "junit", "html", "md"] as const;
export type Format = (typeof FORMATS)[number];

const FILES: Record<Format, [string, (r: Report) => string]> = {
  json: ["report.json", toJson],
  junit: ["junit.xml", toJunit],
  html: ["report.html", toHtml],
  md: ["report.md", toMarkdown],
};

/** Writes the report in each format; returns the paths written. */
export function writeReports(report: Report, dir: string, formats: readonly Format[]): string[] {
  mkdirSync(dir, { recursive: true });
  return formats.map((f) => {
    const [name, render] = FILES[f];
    const path = join(dir, name);
    writeFileSync(path, render(report));
    return path;
  });
}
