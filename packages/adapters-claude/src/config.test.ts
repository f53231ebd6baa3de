import { describe, expect, it } from "vitest";
import { buildChildEnv, runningAsRoot } from "./config.ts";

describe("buildChildEnv", () => {
  const base = { PATH: "/usr/bin", HOME: "/home/u", ANTHROPIC_API_KEY: "from-env" };

  it("starts from the parent environment (the SDK's env option replaces it)", () => {
    const env = buildChildEnv({}, "default", base);
    expect(env.PATH).toBe("/usr/bin");
    expect(env.ANTHROPIC_API_KEY).toBe("from-env");
    expect(env.CLAUDE_CONFIG_DIR).toBeUndefined();
    expect(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC).toBe("1");
  });

  it("applies config over the parent environment", () => {
    const env = buildChildEnv(
      {
        configDir: "/tmp/cfg",
        baseUrl: "http://127.0.0.1:1",
        apiKey: "k",
        env: { EXTRA: "x", HOME: "/other" },
        disableNonessentialTraffic: false,
      },
      "default",
      base,
    );
    expect(env).toMatchObject({
      CLAUDE_CONFIG_DIR: "/tmp/cfg",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
      ANTHROPIC_API_KEY: "k",
      EXTRA: "x",
      HOME: "/other",
    });
    expect(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC).toBeUndefined();
  });

  it("sets IS_SANDBOX only for bypass mode when running as root", () => {
    expect(buildChildEnv({}, "default", base).IS_SANDBOX).toBeUndefined();
    // An inherited IS_SANDBOX=yes is not enough for Claude Code: it wants exactly "1".
    expect(buildChildEnv({}, "bypassPermissions", { ...base, IS_SANDBOX: "yes" }).IS_SANDBOX).toBe(
      runningAsRoot() ? "1" : "yes",
    );
  });
});
