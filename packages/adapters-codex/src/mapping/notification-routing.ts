import type { NotificationEnvelope } from "../rpc/app-server-client.ts";

/** The thread a notification belongs to, if any (account/global notifications have none). */
export function notificationThreadId(n: NotificationEnvelope): string | null {
  const params: unknown = n.params;
  if (!isRecord(params)) return null;
  if (typeof params.threadId === "string") return params.threadId;
  if (isRecord(params.thread) && typeof params.thread.id === "string") return params.thread.id;
  return null;
}

/** The turn a notification belongs to: `turnId`, or `turn.id` on turn lifecycle notifications. */
export function notificationTurnId(n: NotificationEnvelope): string | null {
  const params: unknown = n.params;
  if (!isRecord(params)) return null;
  if (typeof params.turnId === "string") return params.turnId;
  if (isRecord(params.turn) && typeof params.turn.id === "string") return params.turn.id;
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
