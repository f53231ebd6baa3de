import { describe, expect, it } from "vitest";
import { checkpointRunPhrase } from "./checkpoint-label.ts";
import { displayRunNumber, type InheritanceLink } from "./run-numbering.ts";

// main: run 1 a turn, run 2 a compaction, run 3 a turn (Run 1, Compaction, Run 2); a fork of
// main at run 3 counts on from 2.
const links: Record<string, InheritanceLink> = {
  main: null,
  fork: { sourceThreadId: "main", sourceRunOrdinal: 3, runOffset: 2 },
};
const aside: Record<string, { from: number; to: number }[]> = { main: [{ from: 2, to: 2 }] };
const asideRunsOf = (id: string) => aside[id];
const numberOf = (threadId: string, ordinal: number) =>
  displayRunNumber(threadId, ordinal, (id) => links[id], asideRunsOf);

describe("E3: checkpoint cards name the run they follow as a person counts runs", () => {
  it("E3: after message, /compact, message the checkpoints read run 1, the compaction, run 2 (not run 3)", () => {
    const phrase = (run: Parameters<typeof checkpointRunPhrase>[0], ordinal: number) =>
      checkpointRunPhrase(run, "main", ordinal, numberOf, asideRunsOf);
    expect(phrase({ conversationNumber: 1 }, 1)).toBe("run 1");
    expect(phrase({ compact: true, conversationNumber: null }, 2)).toBe("the compaction");
    expect(phrase({ conversationNumber: 2 }, 3)).toBe("run 2");
    expect(phrase({ imported: true, conversationNumber: null }, 1)).toBe("the imported turn");
  });

  it("E3: without the run's row (outside the detail's window) the lineage numbers it", () => {
    const phrase = (threadId: string, ordinal: number | null) =>
      checkpointRunPhrase(undefined, threadId, ordinal, numberOf, asideRunsOf);
    expect(phrase("main", 3)).toBe("run 2");
    expect(phrase("main", 2)).toBe("an uncounted run");
    expect(phrase("fork", 1)).toBe("run 3");
    expect(phrase("main", null)).toBe("run ?");
  });
});
