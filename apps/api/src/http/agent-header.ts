import type { IncomingMessage } from "node:http";

/**
 * B19: an outside agent calling the API over HTTP (the ACP endpoint, or any client acting for an
 * agent) names itself with this header; threads it starts record `createdBy: "agent"` with the
 * name. It claims no rights: the token decides what a call may do, this only labels lineage.
 * The name is percent-encoded (`encodeURIComponent`), since header values are bytes.
 */
export const AGENT_HEADER = "x-skein-agent";

export function agentHeader(name: string): Record<string, string> {
  return { [AGENT_HEADER]: encodeURIComponent(name) };
}

export function agentNameOf(req: IncomingMessage): string | null {
  const value = req.headers[AGENT_HEADER];
  if (typeof value !== "string" || value === "") return null;
  try {
    return decodeURIComponent(value);
  } catch {
    // Not percent-encoding after all: taken as sent (the name check refuses what is no name).
    return value;
  }
}
