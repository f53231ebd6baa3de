import { describe, expect, it } from "vitest";
import { findNodeByNativeItemRef, itemForSubject } from "../state/thread-state.ts";
import { given } from "../testing/decider-spec.ts";
import { asThread, id } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

function running() {
  const s = new ThreadScenario().create();
  const runId = s.queue();
  return { s, runId, ...s.start(runId) };
}

/** A running turn with one command started in it, as node `c`. */
function runningCommand(input: string) {
  const turn = running();
  turn.s.exec({
    type: "StartItem",
    data: {
      threadId: turn.s.threadId,
      providerTurnId: turn.providerTurnId,
      nodeId: id("node", "c"),
      kind: "tool_call",
      content: { type: "command_execution", input },
    },
  });
  return turn;
}

describe("StartItem", () => {
  it("an assistant message starts a node, a streaming message and an assistant_message item", () => {
    const { s, runId, providerTurnId, rootNodeId } = running();
    given(s.events)
      .when({
        type: "StartItem",
        data: {
          threadId: s.threadId,
          providerTurnId,
          nodeId: id("node", "m"),
          kind: "assistant_message",
          nativeItemRef: "item-1",
        },
      })
      .then([
        {
          type: "ItemStarted",
          data: {
            node: {
              kind: "assistant_message",
              status: "running",
              parentNodeId: rootNodeId,
              rootNodeId,
              countsForRun: true,
            },
            message: { role: "assistant", streaming: true, text: "" },
            item: {
              type: "assistant_message",
              status: "running",
              runId,
              runOrdinal: 1,
              provider: "codex",
              nodeId: id("node", "m"),
              providerTurnId,
              nativeItemRef: "item-1",
            },
          },
        },
      ]);
  });

  it("tool calls carry structured items (command_execution, file_change, dynamic_tool)", () => {
    const { s, providerTurnId } = running();
    given(s.events)
      .when({
        type: "StartItem",
        data: {
          threadId: s.threadId,
          providerTurnId,
          nodeId: id("node", "c"),
          kind: "tool_call",
          content: { type: "command_execution", input: "ls" },
        },
      })
      .then([
        {
          type: "ItemStarted",
          data: {
            message: null,
            item: { type: "command_execution", input: "ls", status: "running" },
          },
        },
      ]);
    given(s.events)
      .when({
        type: "StartItem",
        data: {
          threadId: s.threadId,
          providerTurnId,
          nodeId: id("node", "f"),
          kind: "tool_call",
          content: {
            type: "file_change",
            fileName: "a.ts",
            additions: 2,
            deletions: 1,
            diffStr: "@@",
          },
        },
      })
      .then([
        {
          type: "ItemStarted",
          data: { item: { type: "file_change", fileName: "a.ts", additions: 2 } },
        },
      ]);
    given(s.events)
      .when({
        type: "StartItem",
        data: {
          threadId: s.threadId,
          providerTurnId,
          nodeId: id("node", "d"),
          kind: "tool_call",
          content: { type: "dynamic_tool", toolName: "skein_delegate", input: { prompt: "x" } },
        },
      })
      .then([
        {
          type: "ItemStarted",
          data: { item: { type: "dynamic_tool", toolName: "skein_delegate" } },
        },
      ]);
  });

  it("T9: children of a subagent node stay in the graph but get no turn item", () => {
    const { s, providerTurnId } = running();
    s.exec({
      type: "StartItem",
      data: { threadId: s.threadId, providerTurnId, nodeId: id("node", "sub"), kind: "subagent" },
    });
    const { after } = given(s.events)
      .when({
        type: "StartItem",
        data: {
          threadId: s.threadId,
          providerTurnId,
          nodeId: id("node", "child"),
          kind: "assistant_message",
          parentNodeId: id("node", "sub"),
        },
      })
      .then([
        {
          type: "ItemStarted",
          data: {
            node: { parentNodeId: id("node", "sub"), countsForRun: false },
            message: { role: "assistant" },
            item: null,
          },
        },
      ]);
    const state = asThread(after);
    expect(state.hiddenNodeIds.has(id("node", "child"))).toBe(true);
    expect(state.nodes.has(id("node", "child"))).toBe(true);
    expect([...state.turnItems.values()].some((e) => e.item.nodeId === id("node", "child"))).toBe(
      false,
    );
  });

  it("rejects content the node kind cannot carry, duplicate nodes/native refs and finished turns", () => {
    const { s, providerTurnId } = running();
    const base = { threadId: s.threadId, providerTurnId };
    given(s.events)
      .when({ type: "StartItem", data: { ...base, nodeId: id("node", "x"), kind: "tool_call" } })
      .thenFails("validation");
    given(s.events)
      .when({
        type: "StartItem",
        data: {
          ...base,
          nodeId: id("node", "x"),
          kind: "reasoning",
          content: { type: "command_execution", input: "ls" },
        },
      })
      .thenFails("validation");
    s.exec({
      type: "StartItem",
      data: { ...base, nodeId: id("node", "a"), kind: "reasoning", nativeItemRef: "r1" },
    });
    given(s.events)
      .when({ type: "StartItem", data: { ...base, nodeId: id("node", "a"), kind: "reasoning" } })
      .thenFails("conflict");
    given(s.events)
      .when({
        type: "StartItem",
        data: { ...base, nodeId: id("node", "b"), kind: "reasoning", nativeItemRef: "r1" },
      })
      .thenFails("precondition_failed");
    given(s.events)
      .when({
        type: "StartItem",
        data: {
          ...base,
          nodeId: id("node", "b"),
          kind: "reasoning",
          parentNodeId: id("node", "ghost"),
        },
      })
      .thenFails("not_found");
    s.finish(providerTurnId);
    given(s.events)
      .when({ type: "StartItem", data: { ...base, nodeId: id("node", "c"), kind: "reasoning" } })
      .thenFails("precondition_failed");
  });
});

describe("native-ref strength (E18)", () => {
  it("E18: a weak (adapter-made) ref never matches an earlier node; a strong one does", () => {
    const { s, providerTurnId } = running();
    const base = { threadId: s.threadId, providerTurnId };
    const notice = (n: string, strength: "strong" | "weak") => ({
      type: "StartItem" as const,
      data: {
        ...base,
        nodeId: id("node", n),
        kind: "system" as const,
        nativeItemRef: "notice:1",
        nativeRefStrength: strength,
        summary: `notice ${n}`,
      },
    });
    s.exec(notice("w1", "weak"));
    // A runtime restarted mid-run may count its notices from 1 again: that is new work.
    s.exec(notice("w2", "weak"));
    const state = s.state;
    expect(state.nodes.get(id("node", "w1"))).toMatchObject({
      kind: "system",
      nativeRefStrength: "weak",
      summary: "notice w1",
    });
    expect(state.nodes.get(id("node", "w2"))).toMatchObject({ nativeRefStrength: "weak" });
    expect(findNodeByNativeItemRef(state, providerTurnId, "notice:1")).toBeUndefined();

    s.exec({
      ...notice("s1", "strong"),
      data: { ...notice("s1", "strong").data, nativeItemRef: "hook:h1" },
    });
    expect(findNodeByNativeItemRef(state, providerTurnId, "hook:h1")?.id).toBe(id("node", "s1"));
    given(s.events)
      .when({
        ...notice("s2", "strong"),
        data: { ...notice("s2", "strong").data, nativeItemRef: "hook:h1" },
      })
      .thenFails("precondition_failed");
    // The folded state agrees with the live one (weak refs are not indexed on replay either).
    const replayed = asThread(given(s.events).state);
    expect(findNodeByNativeItemRef(replayed, providerTurnId, "notice:1")).toBeUndefined();
    expect(findNodeByNativeItemRef(replayed, providerTurnId, "hook:h1")?.id).toBe(id("node", "s1"));
  });
});

describe("AppendItemDelta", () => {
  it("appends to message text, reasoning text and command output", () => {
    const { s, providerTurnId } = running();
    const base = { threadId: s.threadId, providerTurnId };
    s.exec({
      type: "StartItem",
      data: { ...base, nodeId: id("node", "m"), kind: "assistant_message" },
    });
    s.exec({
      type: "StartItem",
      data: {
        ...base,
        nodeId: id("node", "c"),
        kind: "tool_call",
        content: { type: "command_execution", input: "ls" },
      },
    });
    s.exec({
      type: "AppendItemDelta",
      data: { threadId: s.threadId, nodeId: id("node", "m"), delta: "Hel" },
    });
    const { after } = given(s.events)
      .when({
        type: "AppendItemDelta",
        data: { threadId: s.threadId, nodeId: id("node", "m"), delta: "lo" },
      })
      .then([{ type: "ItemDeltaAppended", data: { nodeId: id("node", "m"), delta: "lo" } }]);
    const state = asThread(after);
    const item = itemForSubject(state, id("node", "m"))?.item;
    expect(item?.type === "assistant_message" && item.text).toBe("Hello");
    const messageId = state.messageByNode.get(id("node", "m"));
    expect(messageId && state.messages.get(messageId)?.text).toBe("Hello");
    const out = given(s.events)
      .when({
        type: "AppendItemDelta",
        data: { threadId: s.threadId, nodeId: id("node", "c"), delta: "a.ts\n" },
      })
      .then([{ type: "ItemDeltaAppended" }]);
    const cmd = itemForSubject(asThread(out.after), id("node", "c"))?.item;
    expect(cmd?.type === "command_execution" && cmd.output).toBe("a.ts\n");
  });

  it("rejects nodes without text to stream, finished nodes and unknown nodes", () => {
    const { s, providerTurnId } = running();
    const base = { threadId: s.threadId, providerTurnId };
    s.exec({
      type: "StartItem",
      data: {
        ...base,
        nodeId: id("node", "f"),
        kind: "tool_call",
        content: { type: "file_change", fileName: "a" },
      },
    });
    given(s.events)
      .when({
        type: "AppendItemDelta",
        data: { threadId: s.threadId, nodeId: id("node", "f"), delta: "x" },
      })
      .thenFails("validation");
    s.exec({
      type: "StartItem",
      data: { ...base, nodeId: id("node", "m"), kind: "assistant_message" },
    });
    s.exec({
      type: "CompleteItem",
      data: { threadId: s.threadId, nodeId: id("node", "m"), status: "completed" },
    });
    given(s.events)
      .when({
        type: "AppendItemDelta",
        data: { threadId: s.threadId, nodeId: id("node", "m"), delta: "x" },
      })
      .thenFails("precondition_failed");
    given(s.events)
      .when({
        type: "AppendItemDelta",
        data: { threadId: s.threadId, nodeId: id("node", "x"), delta: "x" },
      })
      .thenFails("not_found");
  });
});

describe("CompleteItem", () => {
  it("completes a node with its final payload; the message stops streaming", () => {
    const { s } = runningCommand("ls");
    const { after } = given(s.events)
      .when({
        type: "CompleteItem",
        data: {
          threadId: s.threadId,
          nodeId: id("node", "c"),
          status: "completed",
          content: { type: "command_execution", input: "ls", output: "a.ts", exitCode: 0 },
        },
      })
      .then([{ type: "ItemCompleted", data: { status: "completed", content: { exitCode: 0 } } }]);
    const state = asThread(after);
    expect(state.nodes.get(id("node", "c"))?.status).toBe("completed");
    expect(itemForSubject(state, id("node", "c"))?.item).toMatchObject({
      status: "completed",
      output: "a.ts",
      exitCode: 0,
    });
  });

  it("P6: a compaction item goes running → completed as the same item, with its titles", () => {
    const { s, providerTurnId } = running();
    s.exec({
      type: "StartItem",
      data: {
        threadId: s.threadId,
        providerTurnId,
        nodeId: id("node", "k"),
        kind: "system",
        content: { type: "compaction" },
      },
    });
    const started = itemForSubject(s.state, id("node", "k"))?.item;
    expect(started).toMatchObject({
      type: "compaction",
      status: "running",
      title: "Compacting context...",
    });
    const { after } = given(s.events)
      .when({
        type: "CompleteItem",
        data: { threadId: s.threadId, nodeId: id("node", "k"), status: "completed" },
      })
      .then([{ type: "ItemCompleted" }]);
    const done = itemForSubject(asThread(after), id("node", "k"))?.item;
    expect(done).toMatchObject({
      id: started?.id,
      type: "compaction",
      status: "completed",
      title: "Compacted context",
    });
  });

  it("a declined command ends its node cancelled and its item declined", () => {
    const { s } = runningCommand("rm -rf /");
    const { after } = given(s.events)
      .when({
        type: "CompleteItem",
        data: { threadId: s.threadId, nodeId: id("node", "c"), status: "declined" },
      })
      .then([{ type: "ItemCompleted" }]);
    const state = asThread(after);
    expect(state.nodes.get(id("node", "c"))?.status).toBe("cancelled");
    expect(itemForSubject(state, id("node", "c"))?.item.status).toBe("declined");
  });

  it("rejects root/request nodes, mismatched content and finished nodes", () => {
    const { s, providerTurnId, rootNodeId } = running();
    given(s.events)
      .when({
        type: "CompleteItem",
        data: { threadId: s.threadId, nodeId: rootNodeId, status: "completed" },
      })
      .thenFails("validation");
    s.exec({
      type: "StartItem",
      data: { threadId: s.threadId, providerTurnId, nodeId: id("node", "r"), kind: "reasoning" },
    });
    given(s.events)
      .when({
        type: "CompleteItem",
        data: {
          threadId: s.threadId,
          nodeId: id("node", "r"),
          status: "completed",
          content: { type: "web_search", query: "q" },
        },
      })
      .thenFails("validation");
    s.exec({
      type: "CompleteItem",
      data: { threadId: s.threadId, nodeId: id("node", "r"), status: "completed" },
    });
    given(s.events)
      .when({
        type: "CompleteItem",
        data: { threadId: s.threadId, nodeId: id("node", "r"), status: "failed" },
      })
      .thenFails("invalid_transition");
  });
});

describe("deltas for hidden nodes", () => {
  it("a subagent child's reasoning has nowhere to stream and is accepted as a no-op", () => {
    const { s, providerTurnId } = running();
    const base = { threadId: s.threadId, providerTurnId };
    s.exec({ type: "StartItem", data: { ...base, nodeId: id("node", "sub"), kind: "subagent" } });
    s.exec({
      type: "StartItem",
      data: {
        ...base,
        nodeId: id("node", "think"),
        kind: "reasoning",
        parentNodeId: id("node", "sub"),
      },
    });
    given(s.events)
      .when({
        type: "AppendItemDelta",
        data: { threadId: s.threadId, nodeId: id("node", "think"), delta: "hmm" },
      })
      .then([]);
  });
});
