import type { RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { ModelReachWatch, ModelUnreachableError } from "./model-reach.ts";

const retry = (attempt: number | null, maxAttempts: number | null): RuntimeEvent => ({
  type: "model.retrying",
  attempt,
  maxAttempts,
  cause: "Connection refused",
});

/** Yields the events, then waits forever (a runtime still retrying, silently). */
async function* thenSilence(events: RuntimeEvent[]): AsyncGenerator<RuntimeEvent> {
  yield* events;
  await new Promise(() => {});
}

function watch(boundMs = 50) {
  const notes: Array<string | null> = [];
  let gaveUp = 0;
  const w = new ModelReachWatch({
    provider: "codex",
    boundMs,
    note: async (n) => {
      notes.push(n?.text ?? null);
    },
    giveUp: async () => {
      gaveUp += 1;
    },
  });
  return { w, notes, gaveUp: () => gaveUp };
}

async function drain(source: AsyncIterable<RuntimeEvent>): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  for await (const e of source) out.push(e);
  return out;
}

describe("B15 ModelReachWatch", () => {
  it("shows each retry in words and stops a turn that keeps retrying past the bound", async () => {
    const x = watch();
    const error = await drain(x.w.watch(thenSilence([retry(2, 5), retry(null, null)]))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelUnreachableError);
    expect((error as Error).message).toBe(
      "Codex could not reach the model: still retrying after 0.1 s, so Skein stopped the turn (last cause: Connection refused)",
    );
    expect(x.notes).toEqual([
      "Codex cannot reach the model: retry 2 of 5 (Connection refused)",
      "Codex cannot reach the model: retrying (Connection refused)",
    ]);
    expect(x.gaveUp()).toBe(1);
    expect(x.w.unreachable).toBe(true);
  });

  it("clears the notice when output resumes, and then lets the turn run on", async () => {
    const x = watch(10_000);
    const delta: RuntimeEvent = { type: "item.delta", itemRef: "i", field: "text", delta: "hi" };
    const done: RuntimeEvent = { type: "turn.completed", nativeTurnRef: "t", status: "completed" };
    const events = await drain(x.w.watch(thenEnd([retry(1, 5), delta, done])));
    expect(events.map((e) => e.type)).toEqual(["model.retrying", "item.delta", "turn.completed"]);
    expect(x.notes).toEqual([
      "Codex cannot reach the model: retry 1 of 5 (Connection refused)",
      null,
    ]);
    expect(x.w.unreachable).toBe(false);
  });

  it("a turn the runtime fails while retrying says its retries are spent, with the cause", async () => {
    const x = watch(10_000);
    const failed: RuntimeEvent = {
      type: "turn.completed",
      nativeTurnRef: "t",
      status: "failed",
      error: "stream disconnected",
    };
    const events = await drain(x.w.watch(thenEnd([retry(5, 5), failed])));
    expect(events.at(-1)).toMatchObject({
      status: "failed",
      error:
        "Codex could not reach the model and its retries are spent (last cause: Connection refused): stream disconnected",
    });
    expect(x.w.unreachable).toBe(true);
  });
});

async function* thenEnd(events: RuntimeEvent[]): AsyncGenerator<RuntimeEvent> {
  yield* events;
}
