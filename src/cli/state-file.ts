import { randomBytes } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { readJsonText } from "../../scenarios/fixtures/index.js";
import { isSnapshotDocument, type Snapshot } from "../contract/schemas/snapshot.js";
import type { Simulator } from "../simulator.js";

// `serve --state FILE` (docs/interfaces.md, Command line): the default sandbox starts from the snapshot in
// FILE when there is one, and a clean stop saves a snapshot there, atomically: written beside it in a new
// temporary file of its own, flushed to disk, then renamed over it, so a stop cut short leaves the previous
// file whole. Everything that could make the save fail at stop is checked at start.

/** Why the state file cannot be used; `serve` prints it and exits 2. */
export class StateFileError extends Error {}

/** A `--state` file checked at start: the file it names, where it is written, and the snapshot it holds. */
export interface StateFile {
  readonly file: string;
  /** FILE with its symbolic links followed: the save replaces the file a link points to, not the link. */
  readonly target: string;
  readonly snapshot: Snapshot | undefined;
}

/**
 * The temporary files of saves of `target`: `target.<16 hex digits>.tmp`, the random part from `random`.
 * Leftovers of earlier versions' saves, `target.<pid>.tmp`, are removed at start too.
 */
const temporaryName = (target: string, random: (size: number) => Buffer) =>
  `${target}.${random(8).toString("hex")}.tmp`;
const TEMPORARY = /^(.+)\.(?:[0-9a-f]{16}|[0-9]{1,10})\.tmp$/;

/**
 * Checks FILE at start (its folder exists and can be written; FILE, if there, is a regular file of at most
 * MAX_DOCUMENT_BYTES holding a snapshot), removes the temporary files earlier saves of it left when cut
 * short, and reads its snapshot. Throws a StateFileError saying what is wrong.
 */
export function openState(file: string): StateFile {
  const target = followLinks(file);
  const folder = dirname(target);
  try {
    if (!statSync(folder).isDirectory()) throw new Error("not a folder");
    accessSync(folder, constants.W_OK);
    for (const name of readdirSync(folder))
      if (TEMPORARY.exec(name)?.[1] === basename(target)) {
        try {
          unlinkSync(join(folder, name)); // a link itself, never what it points to
        } catch {
          // Not removable (a folder of that name, say): left alone, and never written (saves create new files).
        }
      }
  } catch (error) {
    throw new StateFileError(`the state file ${file} cannot be saved in ${folder}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readJsonText(target));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { file, target, snapshot: undefined };
    throw new StateFileError(`cannot read the state file ${file}: ${(error as Error).message}`);
  }
  if (!isSnapshotDocument(parsed))
    throw new StateFileError(
      `the state file ${file} holds no snapshot (no "format"); it would be overwritten at stop. Give a fixture with --fixture.`,
    );
  return { file, target, snapshot: parsed as Snapshot };
}

/** The path FILE's chain of symbolic links ends at, whether or not a file is there yet. */
function followLinks(file: string): string {
  let path = resolve(file);
  // As many links as Linux follows before ELOOP.
  for (let links = 0; links <= 40; links++) {
    let isLink = false;
    try {
      isLink = lstatSync(path).isSymbolicLink();
    } catch {
      // Nothing there (yet): the save creates it; a folder that is not there is refused next.
    }
    if (!isLink) return path;
    path = resolve(dirname(path), readlinkSync(path));
  }
  throw new StateFileError(`the state file ${file}: too many levels of symbolic links`);
}

/**
 * Saves the default sandbox's snapshot to the state file and says so on stderr; the exit code of the stop:
 * 0 when saved, 1 when the save failed (reported, the file left as it was).
 */
export function saveState(
  sim: Simulator,
  { file, target }: StateFile,
  say: (line: string) => void,
  random: (size: number) => Buffer = randomBytes,
): number {
  let temporary: string | undefined;
  try {
    const text = JSON.stringify(sim.snapshot());
    const created = createTemporary(target, random);
    temporary = created.name;
    try {
      writeFileSync(created.fd, text);
      fsyncSync(created.fd);
    } finally {
      closeSync(created.fd);
    }
    renameSync(created.name, target);
    say(`retail-sim: state saved to ${file} (${Buffer.byteLength(text)} bytes)`);
    return 0;
  } catch (error) {
    try {
      if (temporary !== undefined) rmSync(temporary, { force: true });
    } catch {
      // The temporary file stays behind (the next start removes it); the state file itself is as it was.
    }
    say(`retail-sim: cannot save the state to ${file}: ${(error as Error).message}`);
    return 1;
  }
}

/**
 * A new temporary file beside `target`, created exclusively (O_CREAT|O_EXCL: a file or link already at
 * the name is never opened, let alone followed) under a random name, another one tried when it is taken.
 */
function createTemporary(target: string, random: (size: number) => Buffer): { fd: number; name: string } {
  for (let tries = 1; ; tries++) {
    const name = temporaryName(target, random);
    try {
      // Readable by its owner only: a snapshot holds every key's token and the client secrets.
      return { fd: openSync(name, "wx", 0o600), name };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || tries === 16) throw error;
    }
  }
}
