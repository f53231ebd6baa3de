import { isDeepStrictEqual } from "node:util";
import type { RuntimeEvent } from "@skein/domain/provider";
import type { Fixture } from "./record-session.ts";
import { replaySlice } from "./replay-slice.ts";

/**
 * Whether a recorded session may become a fixture: its replay must give exactly what the adapter
 * emitted live, or the replay would not stand for the adapter. Returns the replayed events when
 * it may not.
 */
export async function refusedRecording(fixture: Fixture): Promise<RuntimeEvent[] | null> {
  const sessions = await replaySlice(fixture.frames, { provider: fixture.provider });
  const [replayed] = sessions;
  if (sessions.length === 1 && isDeepStrictEqual(replayed?.events, fixture.events)) return null;
  return sessions.flatMap((s) => s.events);
}
