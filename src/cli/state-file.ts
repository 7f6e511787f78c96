import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readJsonText } from "../../scenarios/fixtures/index.js";
import { isSnapshotDocument, type Snapshot } from "../contract/schemas/snapshot.js";
import type { Simulator } from "../simulator.js";

// `serve --state FILE` (docs/interfaces.md, Command line): the default sandbox starts from the snapshot in
// FILE when there is one, and a clean stop saves a snapshot there, atomically: written beside it under
// another name, flushed to disk, then renamed over it, so a stop cut short leaves the previous file whole.

/** Why the state file cannot be used; `serve` prints it and exits 2. */
export class StateFileError extends Error {}

/** The snapshot FILE holds, parsed (checked when the simulator restores it), or undefined when there is no FILE. */
export function readState(file: string): Snapshot | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readJsonText(file));
  } catch (error) {
    throw new StateFileError(`cannot read the state file ${file}: ${(error as Error).message}`);
  }
  if (!isSnapshotDocument(parsed))
    throw new StateFileError(
      `the state file ${file} holds no snapshot (no "format"); it would be overwritten at stop. Give a fixture with --fixture.`,
    );
  return parsed as Snapshot;
}

/**
 * Saves the default sandbox's snapshot to FILE and says so on stderr; the exit code of the stop: 0 when
 * saved, 1 when the save failed (reported, FILE left as it was).
 */
export function saveState(sim: Simulator, file: string, say: (line: string) => void): number {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const text = JSON.stringify(sim.snapshot());
    // Readable by its owner only: a snapshot holds every key's token and the client secrets.
    const fd = openSync(temporary, "w", 0o600);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    say(`retail-sim: state saved to ${file} (${Buffer.byteLength(text)} bytes)`);
    return 0;
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // The temporary file stays behind; the state file itself is as it was.
    }
    say(`retail-sim: cannot save the state to ${file}: ${(error as Error).message}`);
    return 1;
  }
}
