import { describe, expect, test } from "vitest";
import { classifyFrame, parseFrame } from "./frames.ts";

describe("classifyFrame", () => {
  test("tells requests, notifications, responses and errors apart without a jsonrpc field", () => {
    expect(classifyFrame({ id: 3, method: "item/tool/call", params: { a: 1 } })).toEqual({
      kind: "request",
      id: 3,
      method: "item/tool/call",
      params: { a: 1 },
    });
    expect(classifyFrame({ method: "turn/started", params: {} })).toMatchObject({
      kind: "notification",
      method: "turn/started",
    });
    expect(classifyFrame({ id: "x", result: null })).toEqual({
      kind: "response",
      id: "x",
      result: null,
    });
    expect(classifyFrame({ id: 1, error: { code: -32600, message: "nope" } })).toEqual({
      kind: "error",
      id: 1,
      error: { code: -32600, message: "nope" },
    });
  });

  test("tolerates malformed errors and rejects non-frames", () => {
    expect(classifyFrame({ error: {} })).toEqual({
      kind: "error",
      id: null,
      error: { code: -32603, message: "unknown error" },
    });
    expect(classifyFrame([1]).kind).toBe("invalid");
    expect(classifyFrame({ id: 1 }).kind).toBe("invalid");
    expect(parseFrame("not json{")).toEqual({
      frame: { kind: "invalid", reason: "not JSON" },
      payload: "not json{",
    });
  });
});
