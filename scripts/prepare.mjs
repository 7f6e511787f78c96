// npm's `prepare` script: builds the package when npm installs a clone (`npm install`, `npm ci`), packs it
// (`npm pack`) or installs it from git. One case is left out: `npx retail-sim` in a clone. npm exec installs the
// clone's own package, which names the `retail-sim` bin, into its npx cache as a link to the clone, and runs its
// `prepare` there (npm_command is `exec`): a second build of a clone `npm install` has built already, ~30 s before
// the first start. With the bin built, that run builds nothing; `npm run build` rebuilds after a change.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
if (process.env.npm_command === "exec" && existsSync(`${root}dist/bin/retail-sim.js`)) {
  console.log("prepare: dist/bin/retail-sim.js is built; npx runs it as it is (npm run build rebuilds)");
  process.exit(0);
}
const build = spawnSync("npm run build", { cwd: root, stdio: "inherit", shell: true });
process.exit(build.status ?? 1);
