import { accessSync, constants, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { isBuiltinProviderId, isConfiguredProviderId } from "@skein/domain/provider";
import type { AcpAgentSpec } from "./agent-spec.ts";

/** A configured agent that cannot be used, in words for `provider.status`. */
export type AgentConfigProblem = {
  /** The entry's id when it has a usable one, else where it sits (`SKEIN_ACP_AGENTS[2]`). */
  id: string;
  message: string;
};

export type AcpAgentsConfig = { agents: AcpAgentSpec[]; problems: AgentConfigProblem[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Why `command` cannot run here, or null when it can (absolute, relative to nothing, or on PATH). */
export function commandProblem(command: string, path = process.env.PATH ?? ""): string | null {
  if (isAbsolute(command)) {
    return isExecutableFile(command) ? null : `${command} is missing or not executable`;
  }
  if (command.includes("/"))
    return `command must be an absolute path or a name on PATH: ${command}`;
  const found = path
    .split(delimiter)
    .filter((dir) => dir.length > 0)
    .some((dir) => isExecutableFile(join(dir, command)));
  return found ? null : `${command} is not on PATH`;
}

function stringArray(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : null;
}

function stringRecord(value: unknown): Record<string, string> | null {
  return isRecord(value) && Object.values(value).every((v) => typeof v === "string")
    ? (value as Record<string, string>)
    : null;
}

function readEntry(
  entry: unknown,
  where: string,
  seen: Set<string>,
): AcpAgentSpec | AgentConfigProblem {
  if (!isRecord(entry)) return { id: where, message: `${where} must be an object` };
  const id = typeof entry.id === "string" ? entry.id : "";
  if (!isConfiguredProviderId(id) && !isBuiltinProviderId(id)) {
    return {
      id: where,
      message: `${where}: id must be 2–32 lowercase letters, digits or dashes, starting with a letter`,
    };
  }
  const fail = (message: string) => ({ id, message: `${id} (${where}): ${message}` });
  if (isBuiltinProviderId(id)) return fail(`the id ${id} belongs to a built-in provider`);
  if (seen.has(id)) return fail("the same id appears twice; the first entry is used");
  seen.add(id);
  if (typeof entry.command !== "string" || entry.command.trim() === "") {
    return fail("command is missing");
  }
  const args = entry.args === undefined ? [] : stringArray(entry.args);
  if (args === null) return fail("args must be a list of strings");
  const env = entry.env === undefined ? {} : stringRecord(entry.env);
  if (env === null) return fail("env must map names to strings");
  const problem = commandProblem(entry.command, env.PATH ?? process.env.PATH);
  if (problem !== null) return fail(problem);
  const name = typeof entry.name === "string" && entry.name.trim() !== "" ? entry.name : id;
  return { id, name, command: entry.command, args, env };
}

/**
 * Reads `{ id, name, command, args?, env? }` entries. Every entry that cannot be used becomes a
 * problem in words and the others stand: one bad line never takes the rest down.
 */
export function parseAcpAgents(text: string, source: string): AcpAgentsConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { agents: [], problems: [{ id: source, message: `${source} is not JSON: ${reason}` }] };
  }
  if (!Array.isArray(parsed)) {
    return {
      agents: [],
      problems: [{ id: source, message: `${source} must be a JSON array of agents` }],
    };
  }
  const agents: AcpAgentSpec[] = [];
  const problems: AgentConfigProblem[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of parsed.entries()) {
    const read = readEntry(entry, `${source}[${index}]`, seen);
    if ("message" in read) problems.push(read);
    else agents.push(read);
  }
  return { agents, problems };
}

/**
 * The configured agents: `SKEIN_ACP_AGENTS` (a JSON array) when set, else
 * `<dataDir>/agents.json` when it exists, else none.
 */
export async function loadAcpAgents(input: {
  env: Record<string, string | undefined>;
  dataDir: string;
}): Promise<AcpAgentsConfig> {
  const fromEnv = input.env.SKEIN_ACP_AGENTS;
  if (fromEnv !== undefined && fromEnv.trim() !== "")
    return parseAcpAgents(fromEnv, "SKEIN_ACP_AGENTS");
  const path = join(input.dataDir, "agents.json");
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) =>
    error.code === "ENOENT" ? null : Promise.reject(error),
  );
  return text === null ? { agents: [], problems: [] } : parseAcpAgents(text, path);
}
