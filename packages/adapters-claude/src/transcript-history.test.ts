import { describe, expect, it } from "vitest";
import {
  cutEntryInTranscript,
  failedPromptCut,
  historyFromTranscript,
} from "./transcript-history.ts";

type Line = Record<string, unknown>;
const user = (uuid: string, parentUuid: string | null, content: unknown, extra: Line = {}) => ({
  type: "user",
  uuid,
  parentUuid,
  isSidechain: false,
  message: { role: "user", content },
  ...extra,
});
const assistant = (uuid: string, parentUuid: string, content: unknown, extra: Line = {}) => ({
  type: "assistant",
  uuid,
  parentUuid,
  isSidechain: false,
  message: { role: "assistant", content },
  ...extra,
});
const jsonl = (lines: Line[]) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;

// Shapes as Claude Code 2.1.332 writes them (see SDK-NOTES.md): attachments and bookkeeping
// entries between messages, tool results as user entries, a rewind leaving a dead branch, and a
// last line cut short by a crash.
const transcript = `${jsonl([
  { type: "queue-operation", content: "one" },
  user("p1", null, "one"),
  { type: "attachment", uuid: "att1", parentUuid: "p1" },
  assistant("a1", "att1", [{ type: "text", text: "A1" }]),
  user("p2", "a1", [
    { type: "text", text: "<system-reminder>\nignore me\n</system-reminder>" },
    { type: "text", text: "handoff" },
    { type: "text", text: "two" },
  ]),
  assistant("a2", "p2", [{ type: "tool_use", id: "t1", name: "Bash", input: {} }]),
  user("r2", "a2", [{ type: "tool_result", tool_use_id: "t1", content: "done" }]),
  assistant("a2b", "r2", [{ type: "text", text: "A2" }]),
  // Turn 3 was rolled back: the next prompt continues from a2b, leaving p3/a3 behind.
  user("p3", "a2b", "dropped"),
  assistant("a3", "p3", [{ type: "text", text: "gone" }]),
  user("p4", "a2b", "four"),
  assistant("e4", "p4", [{ type: "text", text: "API Error: 500" }], { isApiErrorMessage: true }),
  user("i4", "e4", [{ type: "text", text: "[Request interrupted by user]" }]),
  { ...assistant("s1", "p4", [{ type: "text", text: "subagent" }]), isSidechain: true },
  { type: "last-prompt" },
])}{"type":"assistant","uuid":"cut`;

describe("transcript history", () => {
  it("reads the live branch as turns keyed by their prompt uuid", () => {
    expect(historyFromTranscript(transcript)).toEqual([
      { nativeTurnRef: "p1", ordinal: 1, userText: "one", assistantText: "A1" },
      { nativeTurnRef: "p2", ordinal: 2, userText: "handoff\ntwo", assistantText: "A2" },
      { nativeTurnRef: "p4", ordinal: 3, userText: "four", assistantText: null },
    ]);
  });

  it("cuts at a turn's last entry (tool results and interrupt markers included)", () => {
    expect(cutEntryInTranscript(transcript, "p1")).toBe("a1");
    expect(cutEntryInTranscript(transcript, "p2")).toBe("a2b");
    expect(cutEntryInTranscript(transcript, "p4")).toBe("i4");
    // An entry uuid is its own cut; entries off the live branch are unknown.
    expect(cutEntryInTranscript(transcript, "a2")).toBe("a2");
    expect(cutEntryInTranscript(transcript, "p3")).toBeNull();
  });

  it("finds prompts the model refused at the end of the live branch, and where to resume without them", () => {
    const refused = (uuid: string, parent: string) =>
      assistant(uuid, parent, [{ type: "text", text: "API Error: 400" }], {
        isApiErrorMessage: true,
      });
    const good = [
      user("p1", null, "one"),
      { type: "attachment", uuid: "att1", parentUuid: "p1" },
      assistant("a1", "att1", [{ type: "text", text: "A1" }]),
      { type: "attachment", uuid: "snap1", parentUuid: "a1" },
    ];
    // The interrupted turn of `transcript` does not count: it ends on a marker, not an error.
    expect(failedPromptCut(transcript)).toBeNull();
    expect(failedPromptCut(jsonl(good))).toBeNull();
    const once = [...good, user("p2", "snap1", "bad"), refused("e2", "p2")];
    expect(failedPromptCut(jsonl(once))).toEqual({ at: "snap1" });
    // Two in a row (each retried: two errors): both go.
    const twice = [
      ...once,
      user("p3", "e2", "bad again"),
      refused("e3", "p3"),
      refused("e3b", "e3"),
    ];
    expect(failedPromptCut(jsonl(twice))).toEqual({ at: "snap1" });
    // The first prompt of the conversation: nothing to resume at.
    expect(failedPromptCut(jsonl([user("p1", null, "bad"), refused("e1", "p1")]))).toEqual({
      at: null,
    });
    // A turn that had answered before failing keeps its work.
    const worked = [
      ...good,
      user("p2", "snap1", "work"),
      assistant("a2", "p2", [{ type: "tool_use", id: "t1", name: "Bash", input: {} }]),
      user("r2", "a2", [{ type: "tool_result", tool_use_id: "t1", content: "done" }]),
      refused("e2", "r2"),
    ];
    expect(failedPromptCut(jsonl(worked))).toBeNull();
  });
});
