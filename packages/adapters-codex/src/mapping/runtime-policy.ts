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
  return {
    cwd: settings.cwd,
    approvalPolicy: policy.approvalPolicy,
    sandbox: policy.sandbox,
    ...(model ? { model } : {}),
  };
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
