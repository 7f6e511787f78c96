// Vitest setup file: after each test, fail it if a simulator built with the response check (makeSim,
// checkedSimulator, the conformance helpers) answered something the OpenAPI document does not describe.
import { afterEach } from "vitest";
import { failOnProblems } from "./response-validation.js";

afterEach(failOnProblems);
