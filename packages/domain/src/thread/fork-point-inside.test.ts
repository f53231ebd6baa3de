import { describe, expect, it } from "vitest";
import type { CommandOf } from "../commands.ts";
import type { ForkSourcePointSpec } from "../commands/thread-lifecycle-commands.ts";
import type { ThreadEvent } from "../events.ts";
import type { TurnItemId } from "../ids.ts";
import { given } from "../testing/decider-spec.ts";
import { id, readThreads } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

const NEW = id("thread", "new");

const fork = (s: ThreadScenario, sourcePoint: ForkSourcePointSpec): CommandOf<"ForkThread"> => ({
  type: "ForkThread",
  data: {
    threadId: NEW,
    sourceThreadId: s.threadId,
    sourcePoint,
    createdBy: "user",
    relationship: "fork",
  },
});

type Forked = Extract<ThreadEvent, { type: "ThreadForked" }>;
type Created = Extract<ThreadEvent, { type: "ContextTransferCreated" }>;

function forked(s: ThreadScenario, point: ForkSourcePointSpec) {
  const { events } = given()
    .when(fork(s, point), readThreads(s.state))
    .then([{ type: "ThreadForked" }, { type: "ContextTransferCreated" }]);
  return { forked: events[0] as Forked, created: events[1] as Created };
}

function itemOfNode(s: ThreadScenario, nodeId: string): TurnItemId {
  const itemId = s.state.itemBySubject.get(nodeId);
  if (!itemId) throw new Error(`no item for ${nodeId}`);
  return itemId;
}

/** Run 1 says two things (a mid-turn point between them), run 2 one thing. */
function source() {
  const s = new ThreadScenario("src").create();
  const runId = s.queue("one");
  const started = s.start(runId);
  const first = s.say(started.providerTurnId, "first half");
  const second = s.say(started.providerTurnId, "second half");
  s.finish(started.providerTurnId);
  s.checkpoint(runId);
  const r2 = s.completedRun("two");
  return { s, runId, started, first, second, r2 };
}

describe("E12: fork from a turn item, a node or an idle provider thread", () => {
  it("E12 P7: a turn item inside a run cuts there: inherited items end at it, and no native turn ref (C1 cuts only at a turn's end)", () => {
    const { s, runId, first } = source();
    const itemId = itemOfNode(s, first);
    const { forked: f, created } = forked(s, { type: "turn_item", turnItemId: itemId });
    expect(f.data.inheritance.cutoffSortKey).toBe(s.state.turnItems.get(itemId)?.sortKey);
    expect(f.data.inheritance.sourceRunOrdinal).toBe(1);
    expect(created.data.transfer.sourcePoint).toMatchObject({
      runId,
      turnItemId: itemId,
      providerTurnRef: null,
    });
    expect(created.data.transfer.sourcePoint.providerThreadRef).toMatch(/^native-/);
    expect(created.data.transfer.status).toBe("pending");
  });

  it("E12 C1: the run's last conversation item (a checkpoint after it does not matter) keeps the turn's native ref", () => {
    const { s, runId, second, started } = source();
    const itemId = itemOfNode(s, second);
    const { created } = forked(s, { type: "turn_item", turnItemId: itemId });
    expect(created.data.transfer.sourcePoint).toMatchObject({
      runId,
      turnItemId: itemId,
      providerTurnRef: `turn-${started.providerTurnId}`,
    });
  });

  it("E12: a node forks at its item; a root turn node at its whole run", () => {
    const { s, runId, first, started } = source();
    const atNode = forked(s, { type: "node", nodeId: first });
    expect(atNode.created.data.transfer.sourcePoint.turnItemId).toBe(itemOfNode(s, first));
    const atRoot = forked(s, { type: "node", nodeId: started.rootNodeId });
    expect(atRoot.created.data.transfer.sourcePoint).toMatchObject({
      runId,
      turnItemId: null,
      providerTurnRef: `turn-${started.providerTurnId}`,
    });
    expect(atRoot.forked.data.inheritance.cutoffSortKey).toBe(
      s.state.maxItemSortKeyByRun.get(runId),
    );
  });

  it("E12 E9: an idle provider thread forks at the end of its coverage with its own native refs, after the thread moved to another provider", () => {
    const s = new ThreadScenario("src").create();
    const codex = s.completedRun("one");
    const codexAgain = s.completedRun("two", { providerThreadId: codex.providerThreadId });
    s.completedRun("three", { provider: "claude" });
    const { forked: f, created } = forked(s, {
      type: "provider_thread",
      providerThreadId: codex.providerThreadId,
    });
    expect(f.data.inheritance.sourceRunOrdinal).toBe(2);
    expect(created.data.transfer.sourcePoint).toMatchObject({
      runId: codexAgain.runId,
      providerThreadRef: `native-${codex.providerThreadId}`,
      providerTurnRef: `turn-${codexAgain.providerTurnId}`,
    });
    expect(created.data.transfer.sourceProvider).toBe("codex");
  });

  it("T2 E12: refuses an item of a running run, an item outside any run, a node with no item, an active or unknown provider thread", () => {
    const { s } = source();
    const running = s.queue("three");
    const live = s.start(running);
    const mid = s.say(live.providerTurnId, "partial");
    given()
      .when(fork(s, { type: "turn_item", turnItemId: itemOfNode(s, mid) }), readThreads(s.state))
      .thenFails("precondition_failed", /is still running/);
    given()
      .when(fork(s, { type: "node", nodeId: mid }), readThreads(s.state))
      .thenFails("precondition_failed", /is still running/);
    given()
      .when(
        fork(s, { type: "provider_thread", providerThreadId: live.providerThreadId }),
        readThreads(s.state),
      )
      .thenFails("precondition_failed", /active; a fork needs an idle one/);
    given()
      .when(
        fork(s, { type: "provider_thread", providerThreadId: id("providerThread", "nope") }),
        readThreads(s.state),
      )
      .thenFails("not_found");
    given()
      .when(fork(s, { type: "turn_item", turnItemId: id("item", "nope") }), readThreads(s.state))
      .thenFails("not_found");
    given()
      .when(fork(s, { type: "node", nodeId: id("node", "nope") }), readThreads(s.state))
      .thenFails("not_found");
    // The fork marker of a fork is a thread-level item: no run to cut in.
    const child = new ThreadScenario("child").forkOf(s);
    const [markerId] = [...child.state.turnItems.keys()];
    given()
      .when(
        {
          type: "ForkThread",
          data: {
            threadId: NEW,
            sourceThreadId: child.threadId,
            sourcePoint: { type: "turn_item", turnItemId: markerId! },
            createdBy: "user",
            relationship: "fork",
          },
        },
        readThreads(child.state),
      )
      .thenFails("precondition_failed", /belongs to no run/);
  });
});
