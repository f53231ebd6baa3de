import { describe, expect, it } from "vitest";
import { forkTitle, nestedForkLabel } from "./use-fork.ts";

describe("fork titles", () => {
  it("say where the fork came from, within the API's 200 characters", () => {
    expect(forkTitle("Main", 3)).toBe("fork of Main at run 3");
    expect(forkTitle("Main", null)).toBe("fork of Main");
    const long = forkTitle("x".repeat(300), 12);
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.endsWith("… at run 12")).toBe(true);
  });

  it("read short under their source in the sidebar, and only there", () => {
    expect(nestedForkLabel("fork of Main at run 3", "Main")).toBe("fork at run 3");
    expect(nestedForkLabel("fork of Main at run 3", undefined)).toBe("fork of Main at run 3");
    expect(nestedForkLabel("fork of Main at run 3", "Other")).toBe("fork of Main at run 3");
    expect(nestedForkLabel("renamed by hand", "Main")).toBe("renamed by hand");
  });
});
