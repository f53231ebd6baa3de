// Rewrites docs/spec-coverage.md (SPEC id → the tests whose names cite it) from the test names.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { specCoverage } from "../apps/api/src/docs/spec-coverage.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const { document, uncited } = specCoverage(root);
writeFileSync(new URL("../docs/spec-coverage.md", import.meta.url), document);
console.log(
  `docs/spec-coverage.md updated${uncited.length > 0 ? `; cited by no test: ${uncited.join(", ")}` : ""}`,
);
