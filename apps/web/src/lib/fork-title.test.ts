import { describe, expect, it } from "vitest";
import { nestedForkLabel } from "./use-fork.ts";

describe("fork titles", () => {
  it("read short under their source in the sidebar, and only there", () => {
    expect(nestedForkLabel("fork of Main at run 3", "Main")).toBe("fork at run 3");
    expect(nestedForkLabel("fork of Main at run 3", undefined)).toBe("fork of Main at run 3");
    expect(nestedForkLabel("fork of Main at run 3", "Other")).toBe("fork of Main at run 3");
    expect(nestedForkLabel("fork of Main at run 3 (2)", "Main")).toBe("fork at run 3 (2)");
    expect(nestedForkLabel("renamed by hand", "Main")).toBe("renamed by hand");
  });
});
