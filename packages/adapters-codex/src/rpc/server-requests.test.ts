import { describe, expect, test } from "vitest";
import { isServerRequestMethod, ServerRequestTracker } from "./server-requests.ts";

describe("ServerRequestTracker", () => {
  test("answers once, then refuses; withdrawn and orphaned requests send nothing", () => {
    const sent: unknown[] = [];
    const tracker = new ServerRequestTracker((id, body) => sent.push({ id, ...body }));
    const answered = tracker.create("item/tool/call", 0, {}, "raw_1");
    const withdrawn = tracker.create("item/commandExecution/requestApproval", 1, {}, null);
    const orphaned = tracker.create("item/fileChange/requestApproval", "s-2", {}, null);
    expect(tracker.pendingCount).toBe(3);

    expect(answered.fail("no such tool")).toBe(true);
    expect(answered.state).toBe("answered");
    expect(answered.fail("again")).toBe(false);

    tracker.withdraw(1);
    expect(withdrawn.state).toBe("withdrawn");
    if (withdrawn.method !== "item/commandExecution/requestApproval") throw new Error();
    expect(withdrawn.respond({ decision: "accept" })).toBe(false);

    tracker.orphanAll();
    expect(orphaned.state).toBe("orphaned");
    expect(sent).toEqual([{ id: 0, error: { code: -32000, message: "no such tool" } }]);
  });

  test("knows exactly the generated server request methods", () => {
    expect(isServerRequestMethod("item/commandExecution/requestApproval")).toBe(true);
    expect(isServerRequestMethod("toString")).toBe(false);
    expect(isServerRequestMethod("item/unknown")).toBe(false);
  });
});
