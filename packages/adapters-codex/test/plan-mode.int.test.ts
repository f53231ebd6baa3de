import { describe, expect, test } from "vitest";
import { AdapterHarness, collect, completion, ofType } from "./support/adapter-harness.ts";
import {
  collaborationModes,
  messageTexts,
  proposedPlanReply,
  type ResponsesRequestBody,
  responsesTextReply,
} from "@skein/fake-models";

const PLAN = "# Add a greeting\n\n1. Write hello.txt\n2. Test it";

function request(h: AdapterHarness, index: number): ResponsesRequestBody {
  const body = h.server.requests[index];
  if (!body) throw new Error(`no model request ${index}`);
  return body;
}

describe("codex plan mode and effort (real binary)", () => {
  test("B5: a plan-mode turn carries Codex's plan instructions and effort; its <proposed_plan> becomes a proposed_plan", async () => {
    const h = await AdapterHarness.forTest([
      proposedPlanReply(PLAN),
      responsesTextReply("Implemented."),
    ]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    const events = await collect(
      session.startTurn(
        nativeThreadRef,
        { text: "plan a greeting", interactionMode: "plan", effort: "high" },
        { settings: h.settings() },
      ),
    );
    expect(completion(events)).toMatchObject({ status: "completed" });
    expect(ofType(events, "plan.updated")).toEqual([
      expect.objectContaining({ kind: "proposed_plan", markdown: `${PLAN}\n` }),
    ]);
    // What the model received: the plan-mode instructions and the effort asked for.
    const planned = request(h, 0);
    expect(collaborationModes(planned).at(-1)).toMatch(/^# Plan Mode/);
    expect(planned.reasoning).toEqual({ effort: "high" });

    // The next turn in default mode: Codex says plan mode is over, at its default effort.
    const next = await collect(
      session.startTurn(
        nativeThreadRef,
        { text: "implement it", interactionMode: "default" },
        { settings: h.settings() },
      ),
    );
    expect(completion(next)).toMatchObject({ status: "completed" });
    expect(ofType(next, "plan.updated")).toEqual([]);
    const implemented = request(h, 1);
    expect(collaborationModes(implemented).at(-1)).toMatch(/Default mode/);
    expect(implemented.reasoning).not.toEqual({ effort: "high" });
    expect(messageTexts(implemented, "user").at(-1)).toBe("implement it");
  }, 90_000);

  test("effort alone is sent on turn/start and reaches the model request", async () => {
    const h = await AdapterHarness.forTest([responsesTextReply("quick")]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    await collect(
      session.startTurn(nativeThreadRef, { text: "hi", effort: "low" }, { settings: h.settings() }),
    );
    expect(h.sent("turn/start")[0]?.payload).toMatchObject({ params: { effort: "low" } });
    expect(request(h, 0).reasoning).toEqual({ effort: "low" });
    expect(collaborationModes(request(h, 0))).toEqual([]);
  }, 90_000);

  test("issue 34: a default turn on a thread that holds no collaboration mode sets none; a plan turn sets one, the next default turn sets default back, and a turn in the mode held sets nothing", async () => {
    const h = await AdapterHarness.forTest([
      responsesTextReply("hello"),
      responsesTextReply("forked hello"),
      proposedPlanReply(PLAN),
      responsesTextReply("Implemented."),
      responsesTextReply("Still default."),
    ]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    const turn = (ref: string, text: string, interactionMode: "default" | "plan") =>
      collect(session.startTurn(ref, { text, interactionMode }, { settings: h.settings() }));
    const modesSent = () =>
      h.sent("turn/start").map((f) => {
        const params = (f.payload as { params: { collaborationMode?: { mode: string } } }).params;
        return params.collaborationMode?.mode ?? null;
      });

    expect(completion(await turn(nativeThreadRef, "hi", "default"))).toMatchObject({
      status: "completed",
    });
    // A fork of a thread that holds none holds none either.
    const fork = await session.forkThread({ nativeThreadRef, at: null }, h.settings());
    await turn(fork.nativeThreadRef, "hi from the fork", "default");
    expect(collaborationModes(request(h, 0))).toEqual([]);
    expect(collaborationModes(request(h, 1))).toEqual([]);

    await turn(nativeThreadRef, "plan a greeting", "plan");
    await turn(nativeThreadRef, "implement it", "default");
    await turn(nativeThreadRef, "and test it", "default");
    expect(modesSent()).toEqual([null, null, "plan", "default", null]);
    expect(collaborationModes(request(h, 2)).at(-1)).toMatch(/^# Plan Mode/);
    expect(collaborationModes(request(h, 3)).at(-1)).toMatch(/Default mode/);
    // Still in default mode: Codex's plan instructions are not in force.
    expect(collaborationModes(request(h, 4)).at(-1)).toMatch(/Default mode/);
  }, 90_000);

  test("issue 34: a resumed thread is sent a mode only when Codex holds another one than its turn asks", async () => {
    const h = await AdapterHarness.forTest([
      responsesTextReply("hello"),
      proposedPlanReply(PLAN),
      responsesTextReply("after resume, plain"),
      responsesTextReply("after resume, planned"),
    ]);
    const first = await h.openSession();
    const plain = await first.startThread(h.settings());
    const planned = await first.startThread(h.settings());
    const run = (s: typeof first, ref: string, text: string, interactionMode: "default" | "plan") =>
      collect(s.startTurn(ref, { text, interactionMode }, { settings: h.settings() }));
    await run(first, plain.nativeThreadRef, "hi", "default");
    await run(first, planned.nativeThreadRef, "plan a greeting", "plan");
    await first.close();

    const second = await h.openSession();
    await second.resumeThread(plain.nativeThreadRef, h.settings());
    await second.resumeThread(planned.nativeThreadRef, h.settings());
    await run(second, plain.nativeThreadRef, "go on", "default");
    await run(second, planned.nativeThreadRef, "implement it", "default");
    const modes = h
      .sent("turn/start")
      .map(
        (f) =>
          (f.payload as { params: { collaborationMode?: { mode: string } } }).params
            .collaborationMode?.mode ?? null,
      );
    expect(modes).toEqual([null, "plan", null, "default"]);
    expect(collaborationModes(request(h, 3)).at(-1)).toMatch(/Default mode/);
  }, 90_000);
});
