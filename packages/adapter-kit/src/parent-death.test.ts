import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { withParentDeathSignal } from "./parent-death.ts";

const setprivHere = process.platform === "linux" && existsSync("/usr/bin/setpriv");

afterEach(() => {
  delete process.env.SKEIN_NO_PDEATHSIG;
});

describe("withParentDeathSignal", () => {
  it.runIf(setprivHere)("runs an existing executable under setpriv --pdeathsig SIGKILL", () => {
    expect(withParentDeathSignal("/bin/sh", ["-c", "true"])).toEqual({
      command: "/usr/bin/setpriv",
      args: ["--pdeathsig", "SIGKILL", "--", "/bin/sh", "-c", "true"],
    });
  });

  it("leaves a missing executable alone, so its spawn error names it", () => {
    expect(withParentDeathSignal("/no/such/binary", ["x"])).toEqual({
      command: "/no/such/binary",
      args: ["x"],
    });
  });

  it("can be turned off with SKEIN_NO_PDEATHSIG=1", () => {
    process.env.SKEIN_NO_PDEATHSIG = "1";
    expect(withParentDeathSignal("/bin/sh", [])).toEqual({ command: "/bin/sh", args: [] });
  });
});
