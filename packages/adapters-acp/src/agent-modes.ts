import type { AdapterRuntimeMode } from "@skein/domain/provider";
import type { AcpModeMap } from "./agent-spec.ts";

/** A session's modes as the agent offered them at `session/new` (ids only). */
export type SessionModes = { available: string[]; current: string | null };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The modes of a `session/new` / `session/load` response (`modes.availableModes`). */
export function sessionModesOf(response: unknown): SessionModes {
  const modes = isRecord(response) ? response.modes : undefined;
  if (!isRecord(modes) || !Array.isArray(modes.availableModes))
    return { available: [], current: null };
  return {
    available: modes.availableModes.flatMap((m) =>
      isRecord(m) && typeof m.id === "string" ? [m.id] : [],
    ),
    current: typeof modes.currentModeId === "string" ? modes.currentModeId : null,
  };
}

/** Well-known mode ids, for agents configured without a mode map. */
const GUESSES: Required<Record<keyof AcpModeMap, string[]>> = {
  approvalRequired: ["default", "ask", "approval-required"],
  fullAccess: ["yolo", "full-access", "auto"],
  plan: ["plan", "architect"],
};

/**
 * The agent mode for one of Skein's modes: the configured id when the agent offers it, else a
 * well-known id it offers, else null (the mode is left as it is).
 */
export function modeFor(
  wanted: keyof AcpModeMap,
  map: AcpModeMap | undefined,
  modes: SessionModes,
): string | null {
  const configured = map?.[wanted];
  if (configured !== undefined) return modes.available.includes(configured) ? configured : null;
  return GUESSES[wanted].find((id) => modes.available.includes(id)) ?? null;
}

export function runtimeModeKey(mode: AdapterRuntimeMode): keyof AcpModeMap {
  return mode === "full-access" ? "fullAccess" : "approvalRequired";
}
