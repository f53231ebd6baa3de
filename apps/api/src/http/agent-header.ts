import type { IncomingMessage } from "node:http";

/**
 * B19: an outside agent calling the API over HTTP (the ACP endpoint, or any client acting for an
 * agent) names itself with this header; threads it starts record `createdBy: "agent"` with the
 * name. It claims no rights: the token decides what a call may do, this only labels lineage.
 */
export const AGENT_HEADER = "x-skein-agent";

export function agentNameOf(req: IncomingMessage): string | null {
  const value = req.headers[AGENT_HEADER];
  return typeof value === "string" ? value : null;
}
