import { describe, expect, it } from "vitest";
import { languageOfPath } from "./diff-language.ts";

describe("languageOfPath", () => {
  it("maps extensions and well-known names to highlight.js grammars", () => {
    expect(languageOfPath("src/app.ts")).toBe("ts");
    expect(languageOfPath("main.py")).toBe("py");
    expect(languageOfPath("docs/README.md")).toBe("md");
    expect(languageOfPath("Makefile")).toBe("makefile");
  });

  it("leaves unknown or extensionless files plain", () => {
    expect(languageOfPath("LICENSE")).toBeNull();
    expect(languageOfPath("data.unknownext")).toBeNull();
    expect(languageOfPath(".gitignore")).toBeNull();
  });
});
