import type { ProviderCapabilityFlags } from "@skein/domain/provider";

/** What the Claude adapter supports natively (see SDK-NOTES.md for the evidence). */
export const CLAUDE_CAPABILITIES: ProviderCapabilityFlags = {
  nativeFork: true,
  forkAtTurn: true,
  rollback: true,
  // Steering queues input into the live session; Claude Code folds it into the running turn.
  steer: true,
  interrupt: true,
  resume: true,
  // E10: Claude has no turn ids; the turn's last transcript entry uuid stands in for one.
  strongTurnIds: false,
  nativeSubagents: true,
  // Skein's delegate tool over an in-process MCP server is not wired yet.
  appOwnedTools: false,
  historyInjection: true,
  approvals: true,
  // Reading transcripts back is not implemented yet (the SDK helpers read the host's env).
  readHistory: false,
};
