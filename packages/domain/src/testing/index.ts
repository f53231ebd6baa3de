/**
 * Test support for the domain's own tests and other packages' (`@skein/domain/testing`): id and
 * state fixtures, and the random command generators the property suites draw from.
 */
export { ALL_CAPABILITIES, asThread, id, payloadFor, readThreads } from "./fixtures.ts";
export { threadCommand } from "./random-thread-commands.ts";
export {
  type Action,
  EXTRA_THREAD_ACTIONS,
  pickOf,
  THREAD_ACTIONS,
  type ThreadAction,
  WORLD_ACTIONS,
  type WorldAction,
  worldCommand,
} from "./random-world-commands.ts";
export { ThreadScenario } from "./scenario.ts";
export { detailFromRows, incrementalRows } from "./rows.ts";
