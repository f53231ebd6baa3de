import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type BringBackWhat, bringBackRequest } from "../../lib/bring-back-choice.ts";
import { BringBackOptions } from "./bring-back-options.tsx";

const render = (value: BringBackWhat) =>
  renderToStaticMarkup(
    createElement(BringBackOptions, {
      title: "fork of Main at run 2",
      value,
      pending: false,
      onChange: () => {},
      onBringCode: () => {},
      onCancel: () => {},
    }),
  );

describe("issue 26: bring-back from the composer offers conversation, code, or both", () => {
  it("the options list all three; code only has its own button and needs no message", () => {
    const both = render("both");
    const values = [...both.matchAll(/<option value="([a-z]+)"/g)].map((m) => m[1]);
    expect(values).toEqual(["both", "conversation", "code"]);
    expect(both).toContain("with this message");
    expect(both).not.toContain("Bring back the code");
    const code = render("code");
    expect(code).toContain("Bring back the code");
    expect(code).not.toContain("with this message");
    expect(code).toMatch(/<option value="code" selected="">its code only \(no message, no run\)/);
  });

  it("each choice reaches the API its own way; a fork without code of its own brings its conversation", () => {
    expect(bringBackRequest("both", true)).toEqual({ via: "message", code: "squash" });
    expect(bringBackRequest("conversation", true)).toEqual({ via: "message", code: "none" });
    expect(bringBackRequest("code", true)).toEqual({ via: "bringBackCode" });
    for (const what of ["both", "conversation", "code"] as const) {
      expect(bringBackRequest(what, false)).toEqual({ via: "message", code: "none" });
    }
  });
});
