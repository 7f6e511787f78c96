import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_DOCUMENT_BYTES } from "../../scenarios/fixtures/index.js";
import { createSimulator } from "../simulator.js";
import { openState, saveState, StateFileError } from "./state-file.js";

// docs/interfaces.md, Command line (--state): saves go to a new temporary file created exclusively under a
// random name beside the file (a link planted at any such name is never followed), a symlinked FILE stays a
// link to the file that holds the state, leftovers of interrupted saves are removed at start, and only a
// regular file of at most MAX_DOCUMENT_BYTES is read.

const sim = createSimulator({ clock: "manual", fixture: "empty" });
afterAll(() => sim.close());

const folder = () => mkdtempSync(join(tmpdir(), "retail-sim-state-file-"));
/** A random source that gives 0, 1, 2, ... as 16 hex digits: the temporary names, predictable. */
const counting = () => {
  let n = 0;
  return (size: number) => Buffer.from((n++).toString(16).padStart(size * 2, "0"), "hex");
};
const nameAt = (file: string, n: number) => `${file}.${n.toString(16).padStart(16, "0")}.tmp`;
const lines: string[] = [];
const say = (line: string) => lines.push(line);

/** A file holding `victim`, and a link to it at each of `names`. */
function plant(dir: string, names: string[]): string {
  const victim = join(dir, "victim");
  writeFileSync(victim, "victim");
  for (const name of names) symlinkSync(victim, name);
  return victim;
}

describe("docs/interfaces.md, --state: the save's temporary file", () => {
  it("a link planted at a temporary name (the old FILE.<pid>.tmp included) is never followed: the save takes another name", () => {
    const dir = folder();
    const file = join(dir, "state.json");
    const taken = [`${file}.${process.pid}.tmp`, nameAt(file, 0), nameAt(file, 1), nameAt(file, 2)];
    // Planted after the start, which removes what has a temporary name.
    const state = openState(file);
    const victim = plant(dir, taken);
    expect(saveState(sim, state, say, counting())).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe("victim");
    expect(JSON.parse(readFileSync(file, "utf8")).format).toBe("retail-sim/snapshot");
    // The planted links are left as they were; the save's own temporary file (name 3) was renamed.
    for (const name of taken) expect(lstatSync(name).isSymbolicLink()).toBe(true);
    expect(existsSync(nameAt(file, 3))).toBe(false);
  });

  it("when 16 names in a row are taken the save fails, says so and exits 1, following none and removing none", () => {
    const dir = folder();
    const file = join(dir, "state.json");
    const taken = Array.from({ length: 16 }, (_, n) => nameAt(file, n));
    const state = openState(file);
    const victim = plant(dir, taken);
    lines.length = 0;
    expect(saveState(sim, state, say, counting())).toBe(1);
    expect(lines).toEqual([
      `retail-sim: cannot save the state to ${file}: EEXIST: file already exists, open '${nameAt(file, 15)}'`,
    ]);
    expect(readFileSync(victim, "utf8")).toBe("victim");
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).length).toBe(17);
  });
});

describe("docs/interfaces.md, --state: at start", () => {
  it("removes the temporary files of this FILE's interrupted saves (FILE.<pid>.tmp of earlier versions too; a link among them unlinked, not followed), nothing else", () => {
    const dir = folder();
    const file = join(dir, "state.json");
    const victim = plant(dir, [nameAt(file, 7)]);
    writeFileSync(nameAt(file, 0xabcdef), "half a snapsh");
    writeFileSync(`${file}.12345.tmp`, "an earlier version's half snapshot");
    const kept = ["other.json.0123456789abcdef.tmp", "state.json.0123456789abcdef.tmp.bak", "state.json.x12345.tmp"];
    for (const name of kept) writeFileSync(join(dir, name), "");
    expect(openState(file)).toEqual({ file, target: file, snapshot: undefined });
    expect(readdirSync(dir).sort()).toEqual([...kept, "victim"].sort());
    expect(readFileSync(victim, "utf8")).toBe("victim");
  });

  it("a FILE that is a symbolic link (a chain of them, or one to no file yet) stays one: the save replaces the file it ends at", () => {
    const dir = folder();
    mkdirSync(join(dir, "real"));
    const target = join(dir, "real", "state.json");
    symlinkSync(target, join(dir, "first"));
    symlinkSync("first", join(dir, "link"));
    const file = join(dir, "link");
    const state = openState(file);
    expect(state).toEqual({ file, target, snapshot: undefined });
    expect(saveState(sim, state, say)).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir, "first")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8")).format).toBe("retail-sim/snapshot");
    expect(readdirSync(join(dir, "real"))).toEqual(["state.json"]);
    // The next start reads the snapshot through the link.
    expect(openState(file).snapshot?.format).toBe("retail-sim/snapshot");
  });

  it.each([
    ["none", "ENOENT: no such file or directory"],
    ["plain", "not a folder"],
  ])("refuses a FILE in a folder that is not there, or not a folder (%s)", (parent, reason) => {
    const dir = folder();
    writeFileSync(join(dir, "plain"), "");
    const file = join(dir, parent, "state.json");
    expect(() => openState(file)).toThrow(StateFileError);
    expect(() => openState(file)).toThrow(`the state file ${file} cannot be saved in ${join(dir, parent)}: ${reason}`);
  });

  it(`refuses a FILE over MAX_DOCUMENT_BYTES (${MAX_DOCUMENT_BYTES}) without reading it`, () => {
    const file = join(folder(), "state.json");
    writeFileSync(file, "");
    truncateSync(file, MAX_DOCUMENT_BYTES + 1); // sparse: no disk used
    expect(() => openState(file)).toThrow(
      `cannot read the state file ${file}: ${MAX_DOCUMENT_BYTES + 1} bytes, over the ${MAX_DOCUMENT_BYTES} a fixture or snapshot file may hold`,
    );
  });
});
