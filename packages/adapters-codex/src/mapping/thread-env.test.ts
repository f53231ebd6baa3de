import { describe, expect, it } from "vitest";
import { threadEnvConfig, threadParams } from "./runtime-policy.ts";

describe("a thread's own environment as Codex config (issue 34)", () => {
  it("sets one shell_environment_policy.set leaf per variable, so the person's own entries stay", () => {
    expect(threadEnvConfig({ PORT: "3104", API_PORT: "9" })).toEqual({
      "shell_environment_policy.set.PORT": "3104",
      "shell_environment_policy.set.API_PORT": "9",
    });
    const params = threadParams(
      { cwd: "/w", runtimeMode: "full-access", env: { PORT: "3104" } },
      "gpt-5.5",
    );
    expect(params.config).toEqual({ "shell_environment_policy.set.PORT": "3104" });
  });

  it("sends no config without variables", () => {
    expect(threadEnvConfig(undefined)).toBeNull();
    expect(threadEnvConfig({})).toBeNull();
    expect("config" in threadParams({ cwd: "/w", runtimeMode: "full-access" }, null)).toBe(false);
  });

  it("refuses a name that would split the config path", () => {
    expect(() => threadEnvConfig({ "A.B": "1" })).toThrow(/not an environment variable name: A.B/);
  });
});
