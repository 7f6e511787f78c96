// Splits the spec (markdown) into the units the spec map accounts for: each sentence of a paragraph
// or list item, each table row (cells joined with " | "), and each heading that says something in
// parentheses ("InventoryLevel (one row per live outlet where the product is stocked)"). Plain
// headings only name the section; table header and separator rows are structure.

export type UnitKind = "sentence" | "item" | "row" | "heading";

export interface SpecUnit {
  /** The heading path: "Endpoints: Inventory rules" (level 2, then level 3); the title before any. */
  readonly section: string;
  readonly kind: UnitKind;
  /** The unit's text, markdown markers (backticks, bold) removed. */
  readonly text: string;
  /** The paragraph, list item or row the unit belongs to (the same markers removed). */
  readonly block: string;
  /** 1-based line of the spec. */
  readonly line: number;
}

/** Spec map comparison: backticks stripped, white space collapsed, lower case. */
export const normalize = (text: string): string => text.replace(/`/g, "").replace(/\s+/g, " ").trim().toLowerCase();

const plain = (text: string): string => text.replace(/`/g, "").replace(/\*\*/g, "").replace(/\s+/g, " ").trim();

/** Sentence ends: `.`, `?` or `!` before white space and a capital or a code span. */
export const SENTENCE_END = /(?<=[.?!])\s+(?=[A-Z`*])/;

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => plain(c))
    .filter((c, i, all) => c !== "" || all.slice(i).some((rest) => rest !== ""));

export function splitSpec(markdown: string): SpecUnit[] {
  const units: SpecUnit[] = [];
  const lines = markdown.split(/\r?\n/);
  let title = "";
  let h2 = "";
  let section = "";
  let tableHeader = false;
  const sentences = (raw: string, kind: "sentence" | "item", line: number): void => {
    const block = plain(raw);
    for (const part of raw.split(SENTENCE_END)) {
      const text = plain(part);
      if (text !== "") units.push({ section, kind, text, block, line });
    }
  };
  lines.forEach((raw, i) => {
    const line = i + 1;
    const text = raw.trim();
    if (text === "") {
      tableHeader = false;
      return;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(text);
    if (heading) {
      tableHeader = false;
      const level = heading[1]!.length;
      const name = plain(heading[2]!);
      // A section is named without the heading's parenthetical note: "Identity (GET /me)" is "Identity".
      const short = name.replace(/\s*\(.*\)\s*$/, "");
      if (level === 1) section = title = short;
      else if (level === 2) section = h2 = short;
      else section = `${h2 || title}: ${short}`;
      if (level > 1 && name.includes("(")) units.push({ section, kind: "heading", text: name, block: name, line });
      return;
    }
    if (text.startsWith("|")) {
      // The first row of a table is its header; the row after it is the separator.
      const previous = lines[i - 1]?.trim() ?? "";
      if (!previous.startsWith("|")) {
        tableHeader = true;
        return;
      }
      if (tableHeader && /^\|[\s|:-]+\|$/.test(text)) return;
      tableHeader = false;
      const row = cells(text).join(" | ");
      units.push({ section, kind: "row", text: row, block: row, line });
      return;
    }
    const item = /^(?:\d+\.|[-*])\s+(.*)$/.exec(text);
    if (item) sentences(item[1]!, "item", line);
    else sentences(text, "sentence", line);
  });
  return units;
}
