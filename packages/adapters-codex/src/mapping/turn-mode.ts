import type { TurnInput } from "@skein/domain/provider";
import type { CollaborationMode } from "../protocol/index.ts";

/**
 * `turn/start` fields for the turn's interaction mode and reasoning effort (B5, issue 16).
 * Codex keeps a collaboration mode for later turns, so once the caller says which mode a turn
 * runs in it is always sent, `default` included; a collaboration mode overrides the turn's model
 * and effort, so it carries both. `developer_instructions: null` selects Codex's own
 * instructions for the mode (for `plan`: propose a plan in a `<proposed_plan>` block).
 */
export function turnModeParams(
  input: TurnInput,
  model: string | null,
): { effort?: string; collaborationMode?: CollaborationMode } {
  const effort = input.effort ?? null;
  const params: { effort?: string; collaborationMode?: CollaborationMode } = {};
  if (effort !== null) params.effort = effort;
  if (input.interactionMode === undefined) return params;
  if (model === null) {
    throw new Error(
      `Codex needs a model to run a turn in ${input.interactionMode} mode, and none is known`,
    );
  }
  params.collaborationMode = {
    mode: input.interactionMode,
    settings: { model, reasoning_effort: effort, developer_instructions: null },
  };
  return params;
}
