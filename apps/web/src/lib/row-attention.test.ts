import { describe, expect, it } from "vitest";
import { laterOf, rowAttention } from "./row-attention.ts";

const idle = { status: "idle", pendingRequestCount: 0 };

describe("a sidebar row's needs-you and unread state", () => {
  it("needs you while a request waits or the run waits, whatever was seen", () => {
    expect(rowAttention({ ...idle, status: "waiting" }, null)).toBe("needs-you");
    expect(rowAttention({ ...idle, pendingRequestCount: 2 }, null)).toBe("needs-you");
    expect(
      rowAttention(
        { status: "running", pendingRequestCount: 1, lastRunEndedAt: "2026-12-06T12:00:00.000Z" },
        "2026-12-06T11:00:00.000Z",
      ),
    ).toBe("needs-you");
  });

  it("is unread when a run ended after the thread was last seen, and only then", () => {
    const ended = { ...idle, lastRunEndedAt: "2026-12-06T12:00:00.000Z" };
    expect(rowAttention(ended, "2026-12-06T11:59:59.000Z")).toBe("unread");
    expect(rowAttention(ended, "2026-12-06T12:00:00.000Z")).toBeNull();
    expect(rowAttention(ended, "2026-12-06T12:30:00.000Z")).toBeNull();
    // No run ended yet, nothing known, or an unreadable time: nothing to flag.
    expect(rowAttention(idle, "2026-12-06T11:00:00.000Z")).toBeNull();
    expect(rowAttention(ended, null)).toBeNull();
    expect(rowAttention(ended, "garbage")).toBeNull();
  });

  it("records the later of the browser's and the server's time as 'opened up to'", () => {
    const a = "2026-12-06T12:00:00.000Z";
    const b = "2026-12-06T12:00:02.000Z";
    expect(laterOf(a, b)).toBe(b);
    expect(laterOf(b, a)).toBe(b);
    expect(laterOf(a, undefined)).toBe(a);
    expect(laterOf(a, "garbage")).toBe(a);
  });
});
