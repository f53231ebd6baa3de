import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Fixture } from "./record-session.ts";

/** Where the recorded sessions live: `<provider>-<scenario>.json`, refreshed by a script. */
export const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/", import.meta.url));

export function fixtureFileName(fixture: Pick<Fixture, "provider" | "scenario">): string {
  return `${fixture.provider}-${fixture.scenario}.json`;
}

export function readFixtures(): Array<{ file: string; fixture: Fixture }> {
  return readdirSync(FIXTURES_DIR)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((file) => ({
      file,
      fixture: JSON.parse(readFileSync(`${FIXTURES_DIR}${file}`, "utf8")) as Fixture,
    }));
}
