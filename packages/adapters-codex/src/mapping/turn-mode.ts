import type { TurnInput } from "@skein/domain/provider";
import type { CollaborationMode } from "../protocol/index.ts";

/**
 * What Codex holds for a loaded thread: the collaboration mode it reported or was sent last,
 * `null` for none (a thread started here and never sent one), or `undefined` when not known.
 */
export type HeldMode = CollaborationMode | null | undefined;

/**
 * `turn/start` fields for the turn's interaction mode and reasoning effort (B5, issue 16).
 * Codex keeps a collaboration mode for later turns, so the mode a turn runs in is sent whenever
 * the thread may hold another, `default` included; a collaboration mode overrides the turn's
 * model and effort, so it carries both. `developer_instructions: null` selects Codex's own
 * instructions for the mode (for `plan`: propose a plan in a `<proposed_plan>` block).
 *
 * It is not sent when the thread already holds what the turn asks (`held`): a `default` turn on
 * a thread that holds none, or the very mode held. Setting one makes Codex update and write the
 * thread's settings before the turn starts (~10 ms, issue 34), every turn.
 */
export function turnModeParams(
  input: TurnInput,
  model: string | null,
  held: HeldMode = undefined,
): { effort?: string; collaborationMode?: CollaborationMode } {
  const effort = input.effort ?? null;
  const params: { effort?: string; collaborationMode?: CollaborationMode } = {};
  if (effort !== null) params.effort = effort;
  if (input.interactionMode === undefined) return params;
  if (input.interactionMode === "default" && held === null) return params;
  if (model === null) {
    throw new Error(
      `Codex needs a model to run a turn in ${input.interactionMode} mode, and none is known`,
    );
  }
  const wanted: CollaborationMode = {
    mode: input.interactionMode,
    settings: { model, reasoning_effort: effort, developer_instructions: null },
  };
  if (held && sameMode(held, wanted)) return params;
  params.collaborationMode = wanted;
  return params;
}

function sameMode(a: CollaborationMode, b: CollaborationMode): boolean {
  return (
    a.mode === b.mode &&
    a.settings.model === b.settings.model &&
    (a.settings.reasoning_effort ?? null) === (b.settings.reasoning_effort ?? null) &&
    (a.settings.developer_instructions ?? null) === (b.settings.developer_instructions ?? null)
  );
}
