import { replayClaudeFrames } from "@skein/adapters-claude/replay";
import { replayCodexFrames } from "@skein/adapters-codex/replay";
import type { RuntimeEvent } from "@skein/domain/provider";
import { normalizeEvents } from "./normalize.ts";

/** A raw-log record as the rotating log, a fixture or `events.raw` holds it. */
export type SliceFrame = {
  provider?: string;
  providerSessionId?: string | null;
  rawEventId?: string;
  direction: "incoming" | "outgoing";
  messageKind: "request" | "response" | "notification" | "error";
  method: string | null;
  jsonRpcId: string | number | null;
  payload: unknown;
  observedAt?: string | null;
};

/** One provider session's frames replayed into normalized events. */
export type ReplayedSession = {
  provider: string;
  providerSessionId: string | null;
  events: RuntimeEvent[];
};

export class SliceError extends Error {
  override readonly name = "SliceError";
}

/**
 * Reads a raw log slice: JSON lines of records (cut from a `raw-*.jsonl` file), or a JSON
 * document with `frames` (a fixture, or a saved `events.raw` answer, whose frames carry ids).
 */
export function parseSlice(text: string, fallbackProvider?: string): SliceFrame[] {
  const trimmed = text.trim();
  if (trimmed === "") throw new SliceError("the slice is empty");
  let frames: unknown[];
  const whole = parseJson(trimmed);
  if (whole !== undefined && Array.isArray((whole as { frames?: unknown }).frames)) {
    const doc = whole as { frames: unknown[]; provider?: unknown };
    const provider = typeof doc.provider === "string" ? doc.provider : fallbackProvider;
    frames = doc.frames.map((f) => ({ ...(provider ? { provider } : {}), ...(f as object) }));
  } else {
    frames = trimmed.split("\n").map((line, i) => {
      const frame = parseJson(line);
      if (frame === undefined) throw new SliceError(`line ${i + 1} is not JSON`);
      return frame;
    });
  }
  return frames.map((frame, i) => {
    const f = frame as Partial<SliceFrame>;
    if (f.direction !== "incoming" && f.direction !== "outgoing") {
      throw new SliceError(`frame ${i + 1} has no direction: is this a raw log slice?`);
    }
    return frame as SliceFrame;
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Feeds a slice through each provider's mapping, session by session (a log interleaves
 * sessions), and returns the normalized events of each, in order of first appearance.
 */
export async function replaySlice(
  frames: readonly SliceFrame[],
  options: { provider?: string } = {},
): Promise<ReplayedSession[]> {
  const sessions = new Map<string, SliceFrame[]>();
  for (const frame of frames) {
    const key = `${frame.provider ?? options.provider ?? ""}\u0000${frame.providerSessionId ?? ""}`;
    sessions.set(key, [...(sessions.get(key) ?? []), frame]);
  }
  const out: ReplayedSession[] = [];
  for (const [key, group] of sessions) {
    const [provider = "", sessionId = ""] = key.split("\u0000");
    const replayFrames = group.map((f) => ({
      direction: f.direction,
      messageKind: f.messageKind,
      method: f.method,
      jsonRpcId: f.jsonRpcId,
      payload: f.payload,
      ...(f.rawEventId ? { rawEventId: f.rawEventId } : {}),
    }));
    let events: RuntimeEvent[];
    if (provider === "codex") events = replayCodexFrames(replayFrames);
    else if (provider === "claude") events = await replayClaudeFrames(replayFrames);
    else throw new SliceError(`unknown provider "${provider}": pass --provider codex|claude`);
    out.push({
      provider,
      providerSessionId: sessionId === "" ? null : sessionId,
      events: normalizeEvents(provider, events),
    });
  }
  return out;
}
