import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configuredAcpAdapters } from "./configured-agents.ts";

describe("B18: configured ACP agents as provider adapters", () => {
  it("gives each usable id an adapter, bad ones an adapter that says why, and keeps the rest", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "skein-acp-configured-"));
    try {
      const env = {
        SKEIN_ACP_AGENTS: JSON.stringify([
          { id: "shell-agent", name: "Shell", command: "sh", args: ["-c", "exit 0"] },
          { id: "broken", command: join(dataDir, "missing-agent") },
          { id: "shell-agent", command: "sh" },
          { id: "No Good", command: "sh" },
        ]),
      };
      const { adapters, unnamed } = await configuredAcpAdapters({ env, dataDir });
      expect([...adapters.keys()].sort()).toEqual(["broken", "shell-agent"]);
      const shell = [...adapters.values()].find((a) => a.provider === "shell-agent");
      expect(shell?.displayName).toBe("Shell");
      const brokenAdapter = [...adapters.values()].find((a) => a.provider === "broken");
      const broken = await brokenAdapter?.status();
      expect(broken).toMatchObject({ found: false, ready: false });
      expect(broken?.lastError).toMatch(/missing-agent is missing or not executable/);
      await expect(
        brokenAdapter?.openSession({ providerSessionId: "p", cwd: dataDir }),
      ).rejects.toThrow(/missing or not executable/);
      expect(unnamed.map((p) => p.message)).toEqual([
        expect.stringMatching(/shell-agent .*appears twice/),
        expect.stringMatching(/SKEIN_ACP_AGENTS\[3\]: id must be/),
      ]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
