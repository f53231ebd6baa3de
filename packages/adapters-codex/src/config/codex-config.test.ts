import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { resolveCodexConfig } from "./codex-config.ts";
import { CodexBinaryNotFoundError, resolveCodexBinary } from "./resolve-binary.ts";

describe("resolveCodexConfig", () => {
  test("defaults to $CODEX_HOME, then ~/.codex, and the pinned native binary", () => {
    const fromEnv = resolveCodexConfig({}, { CODEX_HOME: "/srv/codex", PATH: "/bin" });
    expect(fromEnv.codexHome).toBe("/srv/codex");
    expect(fromEnv.env).toMatchObject({ CODEX_HOME: "/srv/codex", PATH: "/bin" });
    expect(fromEnv.model).toBeNull();

    const fallback = resolveCodexConfig({}, {});
    expect(fallback.codexHome).toBe(path.join(homedir(), ".codex"));
    expect(path.basename(fallback.binaryPath)).toBe("codex");
    expect(fallback.binaryPath).toContain(path.join("vendor", "x86_64-unknown-linux-musl"));
    expect(existsSync(fallback.binaryPath)).toBe(true);
  });

  test("explicit settings win; env layers over the parent and undefined removes a variable", () => {
    const config = resolveCodexConfig(
      {
        binaryPath: "/opt/codex",
        codexHome: "/h",
        model: "gpt-5.5",
        env: { A: "2", B: undefined },
      },
      { A: "1", B: "dropped", CODEX_HOME: "/ignored" },
    );
    expect(config).toMatchObject({ binaryPath: "/opt/codex", codexHome: "/h", model: "gpt-5.5" });
    expect(config.env).toEqual({ A: "2", CODEX_HOME: "/h" });
  });

  test("an unsupported platform is a typed error", () => {
    expect(() => resolveCodexBinary("aix", "ppc64")).toThrow(CodexBinaryNotFoundError);
  });
});
