import { describe, expect, it } from "vitest";
import { DEFAULT_PROJECT_SETTINGS, ProjectSettingsPatch, projectSettingsOf } from "./project.ts";

describe("project settings: the GitHub repository (B17)", () => {
  it("B17: githubRepository is owner/name or null; anything else is refused in words", () => {
    expect(ProjectSettingsPatch.parse({ githubRepository: " acme/widgets " })).toEqual({
      githubRepository: "acme/widgets",
    });
    expect(ProjectSettingsPatch.parse({ githubRepository: null })).toEqual({
      githubRepository: null,
    });
    for (const bad of ["not a repository", "acme", "acme/widgets/extra", "/widgets", ""]) {
      const parsed = ProjectSettingsPatch.safeParse({ githubRepository: bad });
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/owner\/name/);
    }
  });

  it("B17: settings stored before the field existed read as no repository", () => {
    const { githubRepository: _absent, ...older } = DEFAULT_PROJECT_SETTINGS;
    expect(projectSettingsOf({ settings: older }).githubRepository).toBeNull();
  });
});

describe("project settings: who writes handoffs (issue 25 item 3)", () => {
  it("defaults to Skein, also for settings stored before the field existed", () => {
    expect(DEFAULT_PROJECT_SETTINGS.handoffWriter).toBe("skein");
    expect(projectSettingsOf({}).handoffWriter).toBe("skein");
    const { handoffWriter: _absent, ...older } = DEFAULT_PROJECT_SETTINGS;
    expect(projectSettingsOf({ settings: older }).handoffWriter).toBe("skein");
    expect(projectSettingsOf({ settings: { handoffWriter: "provider" } }).handoffWriter).toBe(
      "provider",
    );
  });

  it("is 'skein' or 'provider'; anything else is refused in words", () => {
    expect(ProjectSettingsPatch.parse({ handoffWriter: "provider" })).toEqual({
      handoffWriter: "provider",
    });
    for (const bad of ["claude", "", null, 1]) {
      const parsed = ProjectSettingsPatch.safeParse({ handoffWriter: bad });
      expect(parsed.success, String(bad)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe("who writes handoffs is 'skein' or 'provider'");
    }
  });
});
