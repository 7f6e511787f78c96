import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { demoMe, launchToReady } from "../test-support/launch.js";

// README, Quick start: in a clone, `npm install` builds and `npm start` starts the built command at once, with
// no build step; `npx retail-sim` in the clone runs the same bin, and the `prepare` npm exec runs when it links
// the clone into its npx cache (npm_command `exec`) builds nothing when the bin is built (scripts/prepare.mjs).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "dist/bin/retail-sim.js");
const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;

beforeAll(() => {
  if (!existsSync(BIN)) spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
});

describe("README, Quick start: the start command runs the built bin without building", () => {
  it("the README starts the simulator with `npm start`, which runs dist/bin/retail-sim.js and nothing before it", () => {
    const quickStart = readFileSync(join(ROOT, "README.md"), "utf8").split("## Quick start")[1]?.split("\n## ")[0];
    expect(quickStart?.match(/```sh\n([^`]*)```/)?.[1]?.split("\n")[1]).toMatch(
      /^npm start {2,}# starts the simulator/,
    );
    expect(scripts.start).toBe("node dist/bin/retail-sim.js");
    expect(scripts.prestart).toBeUndefined();
  });

  it("`npm start -- --port 0 --json` prints the ready line, answers GET /me, and leaves the build as it was", async () => {
    const built = statSync(BIN).mtimeMs;
    const { ready, stop } = await launchToReady("npm", ["start", "--silent", "--", "--port", "0", "--json"], ROOT);
    try {
      expect((await demoMe(ready)).status).toBe(200);
      expect(statSync(BIN).mtimeMs).toBe(built);
    } finally {
      await stop();
    }
  }, 30_000);

  it("under npm exec (npx retail-sim in the clone), prepare builds nothing when the bin is built", () => {
    const built = statSync(BIN).mtimeMs;
    expect(scripts.prepare).toBe("node scripts/prepare.mjs");
    const run = spawnSync(process.execPath, [join(ROOT, "scripts/prepare.mjs")], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, npm_command: "exec" },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      "prepare: dist/bin/retail-sim.js is built; npx runs it as it is (npm run build rebuilds)\n",
    );
    expect(statSync(BIN).mtimeMs).toBe(built);
  });
});
