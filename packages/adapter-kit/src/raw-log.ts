import type { ProviderId, RawEventSink, RawFrame } from "@skein/domain/provider";

/** A frame as an adapter sees it: the provider, session and clock are bound once. */
export type SessionFrame = Omit<RawFrame, "provider" | "providerSessionId" | "observedAt">;

/** Records one frame of a session and returns its `rawEventId`, or undefined when not logged. */
export type SessionRawLog = (frame: SessionFrame) => string | undefined;

/**
 * Binds the raw provider log (E18) to one provider session. Without a sink nothing is logged and
 * no id is made up; a sink that throws is ignored, since diagnostics must never take down a session.
 * Every record carries `observedAt`, the time the frame passed here (B8: when it was seen).
 */
export function bindRawLog(
  sink: RawEventSink | undefined,
  provider: ProviderId,
  providerSessionId: string,
  now: () => Date = () => new Date(),
): SessionRawLog {
  if (!sink) return () => undefined;
  return (frame) => {
    try {
      return sink.record({
        provider,
        providerSessionId,
        ...frame,
        observedAt: now().toISOString(),
      });
    } catch {
      return undefined;
    }
  };
}
