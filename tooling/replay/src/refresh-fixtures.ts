import { writeFileSync } from "node:fs";
import { refusedRecording } from "./refused-recording.ts";
import { FIXTURES_DIR, fixtureFileName } from "./fixture-files.ts";
import { type Provider, recordSession } from "./record-session.ts";
import { SCENARIOS } from "./scenarios.ts";

/**
 * `pnpm fixtures:refresh`: records every scenario on both real runtimes against the fake models
 * and rewrites the fixtures. Run it after upgrading a runtime, then read the diff: the fixture
 * tests say whether the new wire still maps to what the scenarios need. Fails (writing nothing
 * for it) when a session's replay does not give what the adapter emitted live, since the replay
 * would then not stand for the adapter. Names given on the command line (`fork`, `codex`,
 * `claude-steer`) refresh only the matching fixtures.
 */
const providers: Provider[] = ["codex", "claude"];
const only = process.argv.slice(2).filter((arg) => arg !== "--");
const wanted = (provider: Provider, scenario: string) =>
  only.length === 0 ||
  only.some((name) => [provider, scenario, `${provider}-${scenario}`].includes(name));
let failed = false;
for (const provider of providers) {
  for (const scenario of SCENARIOS) {
    if (!wanted(provider, scenario.name)) continue;
    const fixture = await recordSession(provider, scenario);
    const name = fixtureFileName(fixture);
    const replayed = await refusedRecording(fixture);
    if (replayed) {
      failed = true;
      console.error(`✗ ${name}: replay differs from the live events; not written`);
      console.error(JSON.stringify({ live: fixture.events, replayed }, null, 1));
      continue;
    }
    writeFileSync(`${FIXTURES_DIR}${name}`, `${JSON.stringify(fixture, null, 2)}\n`);
    console.log(`✓ ${name}: ${fixture.frames.length} frames, ${fixture.events.length} events`);
  }
}
if (failed) process.exitCode = 1;
