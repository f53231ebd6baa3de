import { describe, expect, it } from "vitest";
import { type Command, parseCommand } from "../commands.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { nameProblem } from "../inputs/text.ts";
import { given } from "../testing/decider-spec.ts";
import type { ExpectedEvent } from "../testing/decider-spec.ts";
import { id, readThreads } from "../testing/fixtures.ts";
import { ADOPTED_TURN_WITHOUT_TEXT, adoptedThreadTitle } from "./adopt.ts";

const THREAD = id("thread", "adopted");
const PT = id("providerThread", "adopted");

function adopt(turns: Extract<Command, { type: "AdoptThread" }>["data"]["turns"]): Command {
  return {
    type: "AdoptThread",
    data: {
      threadId: THREAD,
      projectId: id("project", "p"),
      title: "fix the parser",
      provider: "codex",
      providerThreadId: PT,
      nativeThreadRef: "native-thread-1",
      turns,
    },
  };
}

const TWO_TURNS = [
  { nativeTurnRef: "turn-a", userText: "fix the parser", assistantText: "fixed it" },
  { nativeTurnRef: "turn-b", userText: "and the tests", assistantText: null },
];

const ADOPTED_TWO_TURNS: ExpectedEvent[] = [
  { type: "ThreadCreated", data: { thread: { id: THREAD, defaultProvider: "codex" } } },
  {
    type: "ProviderThreadRecorded",
    data: {
      providerThread: {
        id: PT,
        appThreadId: THREAD,
        nativeThreadRef: "native-thread-1",
        status: "not_loaded",
      },
    },
  },
  {
    type: "RunQueued",
    data: { run: { ordinal: 1, imported: true }, item: { text: "fix the parser" } },
  },
  { type: "RunStarted" },
  { type: "ProviderTurnStarted", data: { providerTurn: { nativeTurnRef: "turn-a" } } },
  { type: "ItemStarted", data: { item: { type: "assistant_message", text: "fixed it" } } },
  { type: "ItemCompleted" },
  { type: "ProviderTurnCompleted", data: { status: "completed" } },
  { type: "RunFinished", data: { status: "completed" } },
  {
    type: "RunQueued",
    data: { run: { ordinal: 2, imported: true }, item: { text: "and the tests" } },
  },
  { type: "RunStarted" },
  { type: "ProviderTurnStarted", data: { providerTurn: { nativeTurnRef: "turn-b", ordinal: 2 } } },
  { type: "ProviderTurnCompleted" },
  { type: "RunFinished" },
];

describe("AdoptThread (B6, E9)", () => {
  it("B6: records the thread bound to the native thread, one completed imported run per native turn", () => {
    const { after } = given().when(adopt(TWO_TURNS)).then(ADOPTED_TWO_TURNS);
    const state = after as ThreadState;
    // The next run finds a provider thread that already covers the whole history (T5 `none`).
    expect(state.providerThreads.get(PT)).toMatchObject({
      status: "idle",
      firstRunOrdinal: 1,
      lastRunOrdinal: 2,
    });
    expect([...state.runs.values()].map((r) => [r.status, r.providerThreadId])).toEqual([
      ["completed", PT],
      ["completed", PT],
    ]);
    expect(state.activeRunId).toBeNull();
  });

  it("B6: a native turn without typed text still gets a user message", () => {
    const { events } = given()
      .when(adopt([{ nativeTurnRef: "turn-a", userText: "  ", assistantText: "compacted" }]))
      .then([
        { type: "ThreadCreated" },
        { type: "ProviderThreadRecorded" },
        { type: "RunQueued", data: { message: { text: ADOPTED_TURN_WITHOUT_TEXT } } },
        { type: "RunStarted" },
        { type: "ProviderTurnStarted" },
        { type: "ItemStarted" },
        { type: "ItemCompleted" },
        { type: "ProviderTurnCompleted" },
        { type: "RunFinished" },
      ]);
    expect(events).toHaveLength(9);
  });

  it("B6: an adopted thread forks from its last imported turn, with the native refs for C1", () => {
    const { after } = given().when(adopt(TWO_TURNS)).then(ADOPTED_TWO_TURNS);
    const fork: Command = {
      type: "ForkThread",
      data: {
        threadId: id("thread", "fork"),
        sourceThreadId: THREAD,
        sourcePoint: { type: "latest_stable" },
        createdBy: "user",
        relationship: "fork",
      },
    };
    const { result } = given().when(fork, readThreads(after as ThreadState));
    if (!result.ok) throw result.error;
    const forked = result.events.find((e) => e.type === "ThreadForked");
    expect(forked?.data).toMatchObject({
      item: { sourcePoint: { providerThreadRef: "native-thread-1", providerTurnRef: "turn-b" } },
    });
  });

  it("refuses a thread id that already exists (CONFLICT), changing nothing", () => {
    const { events } = given()
      .when(adopt([]))
      .then([{ type: "ThreadCreated" }, { type: "ProviderThreadRecorded" }]);
    given(events)
      .when(adopt(TWO_TURNS))
      .thenFails("conflict", /already exists/);
  });

  it("validates its input: a native turn ref must not be empty", () => {
    const parsed = parseCommand(adopt([{ nativeTurnRef: "", userText: "x", assistantText: null }]));
    expect(parsed.ok).toBe(false);
    expect(parseCommand(adopt(TWO_TURNS)).ok).toBe(true);
  });

  it("B6: a provider's title becomes a valid thread name: first line, at most 200 code points", () => {
    expect(adoptedThreadTitle("\n  fix the parser  \nthen the tests")).toBe("fix the parser");
    const long = "😀".repeat(300);
    expect(Array.from(adoptedThreadTitle(long))).toHaveLength(200);
    expect(nameProblem(adoptedThreadTitle(long))).toBeNull();
    expect(adoptedThreadTitle(" \0 ")).toBe("Adopted session");
  });
});
