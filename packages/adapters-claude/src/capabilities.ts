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
  // E10: Claude has no turn ids; the uuid Skein gives the turn's user message stands in for one.
  strongTurnIds: false,
  nativeSubagents: true,
  // App tools (Skein's delegate tool) go through an in-process MCP server (app-tool-server.ts).
  appOwnedTools: true,
  historyInjection: true,
  approvals: true,
  // Parsed from the transcript under the configured config dir (transcript-history.ts).
  readHistory: true,
  planMode: true,
  effort: true,
  adoptSessions: true,
};
