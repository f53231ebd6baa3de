import { describe, expect, it } from "vitest";
import { itemForSubject } from "../state/thread-state.ts";
import { given } from "../testing/decider-spec.ts";
import { asThread, id } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

function running() {
  const s = new ThreadScenario().create();
  const runId = s.queue();
  return { s, runId, ...s.start(runId) };
}

describe("raw frames on items and nodes", () => {
  it("B8: an item started from a frame keeps it; later frames of its deltas and completion extend the range", () => {
    const { s, providerTurnId } = running();
    const nodeId = id("node", "m");
    const base = { threadId: s.threadId, nodeId };
    const started = given(s.events)
      .when({
        type: "StartItem",
        data: {
          ...base,
          providerTurnId,
          kind: "assistant_message",
          rawEventId: "raw-000001.jsonl:4",
        },
      })
      .then([
        {
          type: "ItemStarted",
          data: {
            rawEventId: "raw-000001.jsonl:4",
            node: { rawFrames: { first: "raw-000001.jsonl:4", last: "raw-000001.jsonl:4" } },
            item: { rawFrames: { first: "raw-000001.jsonl:4", last: "raw-000001.jsonl:4" } },
          },
        },
      ]);
    s.exec({
      type: "StartItem",
      data: {
        ...base,
        providerTurnId,
        kind: "assistant_message",
        rawEventId: "raw-000001.jsonl:4",
      },
    });
    const delta = given(s.events)
      .when({
        type: "AppendItemDelta",
        data: { ...base, delta: "Hi", rawEventId: "raw-000001.jsonl:6" },
      })
      .then([{ type: "ItemDeltaAppended", data: { rawEventId: "raw-000001.jsonl:6" } }]);
    expect(itemForSubject(asThread(delta.after), nodeId)?.item.rawFrames).toEqual({
      first: "raw-000001.jsonl:4",
      last: "raw-000001.jsonl:6",
    });
    s.exec({
      type: "AppendItemDelta",
      data: { ...base, delta: "Hi", rawEventId: "raw-000001.jsonl:6" },
    });
    const done = given(s.events)
      .when({
        type: "CompleteItem",
        data: { ...base, status: "completed", rawEventId: "raw-000002.jsonl:1" },
      })
      .then([{ type: "ItemCompleted", data: { rawEventId: "raw-000002.jsonl:1" } }]);
    const state = asThread(done.after);
    const range = { first: "raw-000001.jsonl:4", last: "raw-000002.jsonl:1" };
    expect(state.nodes.get(nodeId)?.rawFrames).toEqual(range);
    expect(itemForSubject(state, nodeId)?.item.rawFrames).toEqual(range);
    expect(started.events).toHaveLength(1);
  });

  it("B8: without a frame (a scripted provider, an app-made item) nothing is added to events or entities", () => {
    const { s, providerTurnId } = running();
    const { events, after } = given(s.events)
      .when({
        type: "StartItem",
        data: {
          threadId: s.threadId,
          providerTurnId,
          nodeId: id("node", "m"),
          kind: "assistant_message",
        },
      })
      .then([{ type: "ItemStarted" }]);
    expect(events[0]?.data).not.toHaveProperty("rawEventId");
    const state = asThread(after);
    expect(state.nodes.get(id("node", "m"))).not.toHaveProperty("rawFrames");
    expect(itemForSubject(state, id("node", "m"))?.item).not.toHaveProperty("rawFrames");
  });

  it("B8: a turn's root node keeps the turn's start and end frames; a start frame after its end is ignored", () => {
    const { s, providerTurnId, rootNodeId } = running();
    const threadId = s.threadId;
    given(s.events)
      .when({
        type: "RecordProviderTurnFrame",
        data: { threadId, providerTurnId, rawEventId: "raw-000001.jsonl:2" },
      })
      .then([{ type: "ProviderTurnFrameRecorded", data: { rawEventId: "raw-000001.jsonl:2" } }]);
    s.exec({
      type: "RecordProviderTurnFrame",
      data: { threadId, providerTurnId, rawEventId: "raw-000001.jsonl:2" },
    });
    const ended = given(s.events)
      .when({
        type: "CompleteProviderTurn",
        data: { threadId, providerTurnId, status: "completed", rawEventId: "raw-000003.jsonl:7" },
      })
      .then([
        { type: "ProviderTurnCompleted", data: { rawEventId: "raw-000003.jsonl:7" } },
        { type: "RunFinished" },
      ]);
    expect(asThread(ended.after).nodes.get(rootNodeId)?.rawFrames).toEqual({
      first: "raw-000001.jsonl:2",
      last: "raw-000003.jsonl:7",
    });
    s.exec({
      type: "CompleteProviderTurn",
      data: { threadId, providerTurnId, status: "completed" },
    });
    given(s.events)
      .when({
        type: "RecordProviderTurnFrame",
        data: { threadId, providerTurnId, rawEventId: "raw-000004.jsonl:1" },
      })
      .then([]);
  });
});
