import { describe, expect, it } from "vitest";
import type { CommandOf } from "../commands.ts";
import type { ThreadEvent } from "../events.ts";
import type { ThreadId } from "../ids.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { given } from "../testing/decider-spec.ts";
import { id, readThreads } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";
import { displayRunNumber, forkTitle, subagentTitle } from "./fork-title.ts";

const fork = (
  threadId: ThreadId,
  sourceThreadId: ThreadId,
  extra: Partial<CommandOf<"ForkThread">["data"]> = {},
): CommandOf<"ForkThread"> => ({
  type: "ForkThread",
  data: {
    threadId,
    sourceThreadId,
    sourcePoint: { type: "latest_stable" },
    createdBy: "user",
    relationship: "fork",
    ...extra,
  },
});

function forked(command: CommandOf<"ForkThread">, ...sources: ThreadState[]) {
  const { events, after } = given()
    .when(command, readThreads(...sources))
    .then([{ type: "ThreadForked" }, { type: "ContextTransferCreated" }]);
  const event = events[0] as Extract<ThreadEvent, { type: "ThreadForked" }>;
  if (after.kind !== "thread") throw new Error("thread state expected");
  return { event: event.data, state: after };
}

describe("B16: fork titles from the domain", () => {
  const source = () => {
    const s = new ThreadScenario("src").create("codex", "Main");
    s.completedRun("one");
    s.completedRun("two");
    return s;
  };

  it("B16: an untitled fork says where it came from; a second one at that point is numbered apart", () => {
    const s = source();
    const first = forked(fork(id("thread", "a"), s.threadId), s.state);
    expect(first.event.thread.title).toBe("fork of Main at run 2");
    const second = forked(fork(id("thread", "b"), s.threadId, { sibling: 2 }), s.state);
    expect(second.event.thread.title).toBe("fork of Main at run 2 (2)");
    const named = forked(fork(id("thread", "c"), s.threadId, { title: "Try B" }), s.state);
    expect(named.event.thread.title).toBe("Try B");
  });

  it("B16: one run numbering: a fork of a fork counts on from the runs it inherited", () => {
    const s = source();
    const { event, state } = forked(fork(id("thread", "a"), s.threadId), s.state);
    expect(event.inheritance.runOffset).toBe(2);
    expect(displayRunNumber(event.inheritance, 1)).toBe(3);
    // The fork has no run of its own yet: its fork is made at the last run it inherited.
    const nested = forked(fork(id("thread", "n"), id("thread", "a")), state, s.state);
    expect(nested.event.inheritance.runOffset).toBe(2);
    // A fork recorded before runOffset existed: its own fork point is its offset.
    expect(displayRunNumber({ sourceRunOrdinal: 4 }, 1)).toBe(5);
    expect(displayRunNumber(null, 1)).toBe(1);
  });

  it("an empty source gives a fork title without a run, and a long source title is cut, not the suffix", () => {
    const empty = new ThreadScenario("src").create("codex", "Empty");
    expect(forked(fork(id("thread", "a"), empty.threadId), empty.state).event.thread.title).toBe(
      "fork of Empty",
    );
    const long = forkTitle("x".repeat(300), 12, 3);
    expect(long).toHaveLength(200);
    expect(long.endsWith("… at run 12 (3)")).toBe(true);
  });
});

describe("B16: sub-agent titles", () => {
  it("B16: a sub-agent's thread is titled by its task, or by its name when only its path is known", () => {
    expect(subagentTitle("CHILD-TASK: write child.txt\nthen report")).toBe(
      "CHILD-TASK: write child.txt",
    );
    expect(subagentTitle("/root/helper")).toBe("helper");
    expect(subagentTitle("   ")).toBe("Sub-agent");
    expect(subagentTitle(undefined)).toBe("Sub-agent");
  });
});
