// retail-sim/coverage (docs/interfaces.md, `retail-sim coverage`): the functions behind the command.
export * from "./coverage-report.js";
export { coverageHtml } from "./coverage-html.js";
