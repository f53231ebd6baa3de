import type { ProviderAdapter, ProviderSessionHandle, TurnHandle } from "@skein/domain/provider";
import { context, trace } from "@opentelemetry/api";
import type { Histogram } from "prom-client";
import { endSpan, tracer } from "../tracing/spans.ts";

/** The provider calls whose latency is worth watching: everything that waits on the runtime. */
const TIMED_SESSION_CALLS = new Set([
  "startThread",
  "resumeThread",
  "forkThread",
  "rollbackThread",
  "readHistory",
  "steerTurn",
  "interruptTurn",
  "respondToRequest",
]);

export type ProviderTimers = {
  /** Seconds a provider call took, by provider and operation. */
  request: Histogram<"provider" | "op" | "outcome">;
  /** Seconds from asking for a turn to its first runtime event. */
  firstEvent: Histogram<"provider">;
};

/** A provider call, timed for the histogram and traced as a `provider <op>` span. */
function timed<T>(
  call: () => Promise<T>,
  labels: { provider: string; op: string },
  timers: ProviderTimers,
): Promise<T> {
  const stop = timers.request.startTimer(labels);
  const attributes = { "skein.provider": labels.provider, "skein.op": labels.op };
  return tracer.startActiveSpan(`provider ${labels.op}`, { attributes }, (span) =>
    call().then(
      (value) => {
        stop({ outcome: "ok" });
        endSpan(span);
        return value;
      },
      (error: unknown) => {
        stop({ outcome: "error" });
        endSpan(span, error);
        throw error;
      },
    ),
  );
}

/**
 * The turn as given, with its start and first event timed and the whole turn traced as one span
 * (each runtime event a span event, up to the SDK's per-span limit); events pass through
 * unchanged.
 */
function timeTurn(
  startTurn: () => TurnHandle,
  provider: string,
  timers: ProviderTimers,
): TurnHandle {
  const stopFirst = timers.firstEvent.startTimer({ provider });
  const span = tracer.startSpan("provider turn", { attributes: { "skein.provider": provider } });
  const turn = context.with(trace.setSpan(context.active(), span), startTurn);
  const started = timed(() => turn.started, { provider, op: "startTurn" }, timers);
  let first = true;
  const events: TurnHandle["events"] = {
    async *[Symbol.asyncIterator]() {
      let failure: unknown;
      try {
        for await (const event of turn.events) {
          if (first) {
            first = false;
            stopFirst();
          }
          span.addEvent(event.type);
          yield event;
        }
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        endSpan(span, failure);
      }
    },
  };
  return { started, events };
}

function instrumentSession(
  handle: ProviderSessionHandle,
  provider: string,
  timers: ProviderTimers,
): ProviderSessionHandle {
  return new Proxy(handle, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property === "startTurn") {
        return (...args: Parameters<ProviderSessionHandle["startTurn"]>) =>
          timeTurn(() => target.startTurn(...args), provider, timers);
      }
      if (typeof property === "string" && TIMED_SESSION_CALLS.has(property)) {
        return (...args: unknown[]) =>
          timed(
            () => Promise.resolve(value.apply(target, args) as Promise<unknown>),
            { provider, op: property },
            timers,
          );
      }
      return value.bind(target);
    },
  });
}

/**
 * The adapter with its runtime calls timed (B11). Only the calls are wrapped: capabilities,
 * identities and the events themselves are the adapter's own, so nothing else can tell.
 */
export function instrumentAdapter(
  adapter: ProviderAdapter,
  timers: ProviderTimers,
): ProviderAdapter {
  const provider = adapter.provider;
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== "openSession" || typeof value !== "function") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (input: Parameters<ProviderAdapter["openSession"]>[0]) => {
        const handle = await timed(
          () => target.openSession(input),
          { provider, op: "openSession" },
          timers,
        );
        return instrumentSession(handle, provider, timers);
      };
    },
  });
}
