import { describe, expectTypeOf, it } from "vitest";
import type {
  ConfiguredProviderId,
  ProviderAdapter,
  ProviderCapabilityFlags,
  ProviderSessionHandle,
  RawEventSink,
  RuntimeEvent,
  RuntimeEventType,
  TurnHandle,
} from "./index.ts";

/**
 * The provider interface is the contract both adapters and the scripted provider implement; these
 * type tests pin its shape so a change to it is a deliberate, visible edit (checked by tsc in the
 * unit tier).
 */
describe("ProviderAdapter", () => {
  it("is versioned and names its provider", () => {
    expectTypeOf<ProviderAdapter["version"]>().toEqualTypeOf<1>();
    expectTypeOf<ProviderAdapter["provider"]>().toEqualTypeOf<
      "codex" | "claude" | "gemini" | ConfiguredProviderId
    >();
  });

  it("opens a session from an app-assigned id; the raw log, model and extra environment are optional", () => {
    type Open = Parameters<ProviderAdapter["openSession"]>[0];
    expectTypeOf<Open>().toEqualTypeOf<{
      providerSessionId: string;
      cwd: string;
      model?: string | null;
      rawLog?: RawEventSink;
      env?: Readonly<Record<string, string>>;
    }>();
    expectTypeOf<ReturnType<ProviderAdapter["openSession"]>>().toEqualTypeOf<
      Promise<ProviderSessionHandle>
    >();
  });

  it("may leave out the model catalog, but not status", () => {
    expectTypeOf<ProviderAdapter>().toHaveProperty("status");
    expectTypeOf<Pick<ProviderAdapter, "listModels">>().toEqualTypeOf<{
      listModels?: ProviderAdapter["listModels"];
    }>();
  });
});

describe("ProviderSessionHandle", () => {
  it("declares every capability as a flag", () => {
    expectTypeOf<ProviderSessionHandle["capabilities"]>().toEqualTypeOf<ProviderCapabilityFlags>();
    expectTypeOf<ProviderCapabilityFlags[keyof ProviderCapabilityFlags]>().toEqualTypeOf<boolean>();
  });

  it("starts a turn synchronously and hands back its events and start", () => {
    expectTypeOf<ReturnType<ProviderSessionHandle["startTurn"]>>().toEqualTypeOf<TurnHandle>();
    expectTypeOf<TurnHandle["events"]>().toEqualTypeOf<AsyncIterable<RuntimeEvent>>();
    expectTypeOf<TurnHandle["started"]>().toEqualTypeOf<
      Promise<{ nativeTurnRef: string | null }>
    >();
  });

  it("forks from a native thread at a turn boundary or the latest state", () => {
    type Source = Parameters<ProviderSessionHandle["forkThread"]>[0];
    expectTypeOf<Source["at"]>().extract<null>().toEqualTypeOf<null>();
    expectTypeOf<ReturnType<ProviderSessionHandle["forkThread"]>>().toEqualTypeOf<
      Promise<{ nativeThreadRef: string }>
    >();
  });

  it("hands back the native thread ref for the app to persist, and reports liveness", () => {
    expectTypeOf<ReturnType<ProviderSessionHandle["startThread"]>>().toEqualTypeOf<
      Promise<{ nativeThreadRef: string }>
    >();
    expectTypeOf<ReturnType<ProviderSessionHandle["isAlive"]>>().toEqualTypeOf<boolean>();
  });
});

describe("RuntimeEvent", () => {
  it("is a closed union of the normalized event types", () => {
    expectTypeOf<RuntimeEventType>().toEqualTypeOf<
      | "turn.started"
      | "item.started"
      | "item.delta"
      | "item.completed"
      | "plan.updated"
      | "request.opened"
      | "request.closed"
      | "usage"
      | "subagent.started"
      | "subagent.completed"
      | "model.retrying"
      | "turn.completed"
    >();
  });

  it("lets every event point at its raw frame, optionally", () => {
    expectTypeOf<RuntimeEvent["rawEventId"]>().toEqualTypeOf<string | undefined>();
  });

  it("ends a turn with one of three statuses", () => {
    type Completed = Extract<RuntimeEvent, { type: "turn.completed" }>;
    expectTypeOf<Completed["status"]>().toEqualTypeOf<"completed" | "interrupted" | "failed">();
  });
});
