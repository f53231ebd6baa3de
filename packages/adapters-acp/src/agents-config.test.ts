import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadAcpAgents, parseAcpAgents } from "./agents-config.ts";

let dir: string;
let tool: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skein-acp-agents-"));
  tool = join(dir, "agent");
  await writeFile(tool, "#!/bin/sh\n");
  await chmod(tool, 0o755);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("B18: ACP agents by configuration", () => {
  it("reads good entries and reports each bad one in words, keeping the rest", async () => {
    const notExecutable = join(dir, "plain.txt");
    await writeFile(notExecutable, "x");
    const config = parseAcpAgents(
      JSON.stringify([
        { id: "goose", name: "Goose", command: tool, args: ["acp"], env: { A: "1" } },
        { id: "nameless", command: "sh" },
        { id: "Bad Id", command: tool },
        "not an object",
        { id: "gemini", command: tool },
        { id: "goose", command: tool },
        { id: "nocmd" },
        { id: "gone", command: join(dir, "missing") },
        { id: "plain", command: notExecutable },
        { id: "nowhere", command: "no-such-agent-binary-xyz" },
        { id: "badargs", command: tool, args: "acp" },
        { id: "badenv", command: tool, env: { A: 1 } },
      ]),
      "SKEIN_ACP_AGENTS",
    );
    expect(config.agents).toEqual([
      { id: "goose", name: "Goose", command: tool, args: ["acp"], env: { A: "1" } },
      { id: "nameless", name: "nameless", command: "sh", args: [], env: {} },
    ]);
    const words = Object.fromEntries(config.problems.map((p) => [p.id, p.message]));
    expect(words["SKEIN_ACP_AGENTS[2]"]).toMatch(/id must be/);
    expect(words["SKEIN_ACP_AGENTS[3]"]).toMatch(/must be an object/);
    expect(words.gemini).toMatch(/built-in provider/);
    expect(words.goose).toMatch(/appears twice/);
    expect(words.nocmd).toMatch(/command is missing/);
    expect(words.gone).toMatch(/missing or not executable/);
    expect(words.plain).toMatch(/missing or not executable/);
    expect(words.nowhere).toMatch(/not on PATH/);
    expect(words.badargs).toMatch(/args must be/);
    expect(words.badenv).toMatch(/env must/);
    expect(config.problems).toHaveLength(10);
  });

  it("says so when the whole value is not a JSON array", () => {
    expect(parseAcpAgents("{oops", "SKEIN_ACP_AGENTS").problems[0]?.message).toMatch(/not JSON/);
    expect(parseAcpAgents("{}", "SKEIN_ACP_AGENTS").problems[0]?.message).toMatch(/JSON array/);
  });

  it("takes SKEIN_ACP_AGENTS first, else <data dir>/agents.json, else nothing", async () => {
    expect(await loadAcpAgents({ env: {}, dataDir: dir })).toEqual({ agents: [], problems: [] });
    await writeFile(join(dir, "agents.json"), JSON.stringify([{ id: "from-file", command: tool }]));
    const fromFile = await loadAcpAgents({ env: {}, dataDir: dir });
    expect(fromFile.agents.map((a) => a.id)).toEqual(["from-file"]);
    const env = { SKEIN_ACP_AGENTS: JSON.stringify([{ id: "from-env", command: tool }]) };
    const fromEnv = await loadAcpAgents({ env, dataDir: dir });
    expect(fromEnv.agents.map((a) => a.id)).toEqual(["from-env"]);
  });
});
