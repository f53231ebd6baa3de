import type { Fixture } from "./record-session.ts";

/**
 * What a recording says Skein asked of the runtime, read from its outgoing frames (and the
 * answers naming threads): where each turn ran, the forks and rollbacks between turns, and
 * when inputs and interrupts were sent. A fixture's expectation checks these against the
 * replayed events: a steer sent inside the turn it joined, a fork's turn on the forked thread.
 * Threads are native ones: Codex thread ids, Claude session ids.
 */
export type Lineage = {
  /** The native thread each turn ran on, in order (Claude: each answered user message's). */
  turnThreads: string[];
  forks: Array<{ from: string; to: string }>;
  rollbacks: Array<{ thread: string }>;
  /** Every user input sent (a turn's own, then steers), where the raw log has it. */
  inputs: Array<{ rawEventId: string; text: string }>;
  interrupts: Array<{ rawEventId: string }>;
};

type Frame = Fixture["frames"][number];

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
const text = (value: unknown): string => (typeof value === "string" ? value : "");

export function lineageOf(fixture: Fixture): Lineage {
  return fixture.provider === "codex"
    ? codexLineage(fixture.frames)
    : claudeLineage(fixture.frames);
}

function codexLineage(frames: readonly Frame[]): Lineage {
  const out: Lineage = { turnThreads: [], forks: [], rollbacks: [], inputs: [], interrupts: [] };
  const inputText = (params: Record<string, unknown>) =>
    (Array.isArray(params.input) ? params.input : []).map((i) => text(record(i).text)).join("");
  for (const frame of frames) {
    if (frame.direction !== "outgoing") continue;
    const params = record(record(frame.payload).params);
    const thread = text(params.threadId);
    if (frame.method === "turn/start") out.turnThreads.push(thread);
    if (frame.method === "turn/start" || frame.method === "turn/steer") {
      out.inputs.push({ rawEventId: frame.rawEventId, text: inputText(params) });
    }
    if (frame.method === "turn/interrupt") out.interrupts.push({ rawEventId: frame.rawEventId });
    if (frame.method === "thread/revert") out.rollbacks.push({ thread });
    if (frame.method === "thread/fork") {
      const answer = frames.find(
        (f) =>
          f.direction === "incoming" &&
          f.messageKind === "response" &&
          f.jsonRpcId === frame.jsonRpcId,
      );
      out.forks.push({
        from: thread,
        to: text(record(record(record(answer?.payload).result).thread).id),
      });
    }
  }
  return out;
}

function claudeLineage(frames: readonly Frame[]): Lineage {
  const out: Lineage = { turnThreads: [], forks: [], rollbacks: [], inputs: [], interrupts: [] };
  for (const frame of frames) {
    const payload = record(frame.payload);
    if (frame.direction === "incoming") {
      // A message is answered in the session its result comes from.
      if (payload.type === "result" && out.turnThreads.length < out.inputs.length) {
        out.turnThreads.push(text(payload.session_id));
      }
      continue;
    }
    if (frame.method === "user") {
      out.inputs.push({
        rawEventId: frame.rawEventId,
        text: text(record(payload.message).content),
      });
    }
    if (frame.method === "interrupt") out.interrupts.push({ rawEventId: frame.rawEventId });
    if (frame.method === "session_start" && typeof payload.resume === "string") {
      const session = text(payload.sessionId);
      if (payload.forkSession === true) out.forks.push({ from: payload.resume, to: session });
      else if (typeof payload.resumeSessionAt === "string") out.rollbacks.push({ thread: session });
    }
  }
  return out;
}
