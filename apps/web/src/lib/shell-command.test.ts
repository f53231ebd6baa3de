import { describe, expect, it } from "vitest";
import { unwrapShell } from "./shell-command.ts";

describe("B16: shell wrappers unwrapped for display", () => {
  it("B16: /bin/bash -lc '…' and its kin show the command inside", () => {
    expect(unwrapShell("/bin/bash -lc 'echo hi > a.txt'")).toBe("echo hi > a.txt");
    expect(unwrapShell("bash -c 'it'\\''s'")).toBe("it's");
    expect(unwrapShell('/usr/bin/sh -c "say \\"x\\""')).toBe('say "x"');
    expect(unwrapShell("/bin/zsh -lc 'a\nb'")).toBe("a\nb");
  });

  it("anything else is shown as it is", () => {
    expect(unwrapShell("npm test")).toBe("npm test");
    expect(unwrapShell("/bin/bash -lc 'a' 'b'")).toBe("/bin/bash -lc 'a' 'b'");
    expect(unwrapShell("bash script.sh")).toBe("bash script.sh");
  });
});
