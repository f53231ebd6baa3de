import { describe, expect, it } from "vitest";
import { retryOf } from "./turn-event-mapper.ts";

// Texts as the real app-server 0.171 sent them with its model URL on a dead loopback port.
describe("B15 retryOf (Codex reconnect notices)", () => {
  it("reads the retry count and takes the cause from the details", () => {
    expect(
      retryOf({
        message: "Reconnecting... 2/5",
        additionalDetails:
          "stream disconnected before completion: Connection refused (os error 111)",
      }),
    ).toEqual({
      attempt: 2,
      maxAttempts: 5,
      cause: "stream disconnected before completion: Connection refused (os error 111)",
    });
  });

  it("has no count while waiting for the network, and falls back to the message", () => {
    expect(
      retryOf({ message: "Reconnecting... waiting for network", additionalDetails: null }),
    ).toEqual({ attempt: null, maxAttempts: null, cause: "Reconnecting... waiting for network" });
  });
});
