import type { AdapterRuntimeMode, ThreadSettings } from "@skein/domain/provider";
import type {
  AskForApproval,
  DynamicToolSpec,
  JsonValue,
  SandboxMode,
  SandboxPolicy,
} from "../protocol/index.ts";

export type CodexPolicy = {
  approvalPolicy: AskForApproval;
  /** Thread-level sandbox (`thread/start`, `thread/resume`, `thread/fork`). */
  sandbox: SandboxMode;
  /** The same sandbox in `turn/start`'s shape, so a mode change applies from the next turn. */
  sandboxPolicy: SandboxPolicy;
};

/**
 * Skein's runtime mode as Codex policy. Approval-required asks before anything outside Codex's
 * known-safe commands (`untrusted`) and confines writes to the workspace; full access never asks.
 */
export function runtimePolicy(mode: AdapterRuntimeMode): CodexPolicy {
  if (mode === "full-access") {
    return {
      approvalPolicy: "never",
      sandbox: "danger-full-access",
      sandboxPolicy: { type: "dangerFullAccess" },
    };
  }
  return {
    approvalPolicy: "untrusted",
    sandbox: "workspace-write",
    sandboxPolicy: {
      type: "workspaceWrite",
      writableRoots: [],
      networkAccess: false,
      excludeTmpdirEnvVar: false,
      excludeSlashTmp: false,
    },
  };
}

/** Params shared by `thread/start`, `thread/resume` and `thread/fork`. */
export function threadParams(settings: ThreadSettings, defaultModel: string | null) {
  const policy = runtimePolicy(settings.runtimeMode);
  const model = settings.model ?? defaultModel;
  const config = threadEnvConfig(settings.env);
  return {
    cwd: settings.cwd,
    approvalPolicy: policy.approvalPolicy,
    sandbox: policy.sandbox,
    ...(model ? { model } : {}),
    ...(config ? { config } : {}),
  };
}

/** What an environment variable's name may be: a dotted name would split the config path. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The thread's own variables (its PORT, issue 26) as config overrides of this thread: Codex sets
 * `shell_environment_policy.set` entries in every command the thread runs. One leaf per variable,
 * so the person's own `set` entries in config.toml stay. This is what lets one app-server serve
 * threads with different PORTs (issue 34: no new process per thread).
 */
export function threadEnvConfig(
  env: Readonly<Record<string, string>> | undefined,
): Record<string, JsonValue> | null {
  const entries = Object.entries(env ?? {});
  if (entries.length === 0) return null;
  const config: Record<string, JsonValue> = {};
  for (const [name, value] of entries) {
    if (!ENV_NAME.test(name)) throw new Error(`not an environment variable name: ${name}`);
    config[`shell_environment_policy.set.${name}`] = value;
  }
  return config;
}

export function dynamicTools(settings: ThreadSettings): DynamicToolSpec[] | null {
  if (!settings.tools?.length) return null;
  return settings.tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    inputSchema: toJson(tool.inputSchema),
  }));
}

/** A JSON round trip: drops what JSON cannot carry, so the result really is a JsonValue. */
function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value) ?? "null") as JsonValue;
}
