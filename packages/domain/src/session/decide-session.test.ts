import { describe, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { ALL_CAPABILITIES, id } from "../testing/fixtures.ts";

const S = id("providerSession", "s");
const open = {
  type: "OpenProviderSession",
  data: {
    providerSessionId: S,
    provider: "codex",
    cwd: "/w",
    model: "gpt-5",
    capabilities: ALL_CAPABILITIES,
  },
} as const;

describe("session stream", () => {
  it("OpenProviderSession → starting session with its capabilities; twice is a conflict", () => {
    const { events } = given([], { kind: "session" })
      .when(open)
      .then([
        {
          type: "ProviderSessionOpened",
          data: {
            session: { status: "starting", provider: "codex", capabilities: { nativeFork: true } },
          },
        },
      ]);
    given(events, { kind: "session" }).when(open).thenFails("conflict");
  });

  it("OpenProviderSession records the owning instance when given (null otherwise)", () => {
    given([], { kind: "session" })
      .when({ ...open, data: { ...open.data, owner: "instance-a" } })
      .then([{ type: "ProviderSessionOpened", data: { session: { owner: "instance-a" } } }]);
    given([], { kind: "session" })
      .when(open)
      .then([{ type: "ProviderSessionOpened", data: { session: { owner: null } } }]);
  });

  it("ChangeProviderSessionStatus follows the table and keeps the last error", () => {
    const { events } = given([], { kind: "session" })
      .when(open)
      .then([{ type: "ProviderSessionOpened" }]);
    const errored = given(events, { kind: "session" })
      .when({
        type: "ChangeProviderSessionStatus",
        data: { providerSessionId: S, status: "error", lastError: "spawn failed" },
      })
      .then([
        {
          type: "ProviderSessionStatusChanged",
          data: { status: "error", lastError: "spawn failed" },
        },
      ]);
    const log = [...events, ...errored.events];
    given(log, { kind: "session" })
      .when({
        type: "ChangeProviderSessionStatus",
        data: { providerSessionId: S, status: "running" },
      })
      .thenFails("invalid_transition");
    given(log, { kind: "session" })
      .when({
        type: "ChangeProviderSessionStatus",
        data: { providerSessionId: S, status: "starting" },
      })
      .then([
        { type: "ProviderSessionStatusChanged", data: { status: "starting", lastError: null } },
      ]);
    given([], { kind: "session" })
      .when({
        type: "ChangeProviderSessionStatus",
        data: { providerSessionId: S, status: "ready" },
      })
      .thenFails("not_found");
  });
});
