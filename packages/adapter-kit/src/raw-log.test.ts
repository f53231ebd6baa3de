import { describe, expect, it } from "vitest";
import { bindRawLog } from "./raw-log.ts";
import { createMemoryRawEventSink } from "./testing/index.ts";

const frame = {
  direction: "incoming",
  messageKind: "notification",
  method: "turn/started",
  jsonRpcId: null,
  payload: { n: 1 },
} as const;

describe("bindRawLog", () => {
  it("records frames under the bound provider and session, observed now, and returns their ids", () => {
    const sink = createMemoryRawEventSink();
    const log = bindRawLog(sink, "codex", "ps_1", () => new Date("2026-01-02T03:04:05.000Z"));
    expect(log(frame)).toBe("raw_1");
    expect(sink.frames).toEqual([
      {
        provider: "codex",
        providerSessionId: "ps_1",
        ...frame,
        observedAt: "2026-01-02T03:04:05.000Z",
        rawEventId: "raw_1",
      },
    ]);
  });

  it("logs nothing and makes up no id without a sink", () => {
    expect(bindRawLog(undefined, "claude", "ps_1")(frame)).toBeUndefined();
  });

  it("swallows a failing sink: diagnostics never take down a session", () => {
    const failing = {
      record(): string {
        throw new Error("disk full");
      },
    };
    expect(bindRawLog(failing, "claude", "ps_1")(frame)).toBeUndefined();
  });
});
