// Rewrites the README's provider capability table from the adapters' declarations.
import { readFileSync, writeFileSync } from "node:fs";
import { withCapabilityTable } from "../apps/api/src/docs/capability-table.ts";

const path = new URL("../README.md", import.meta.url);
writeFileSync(path, withCapabilityTable(readFileSync(path, "utf8")));
console.log("README.md: capability table updated");
