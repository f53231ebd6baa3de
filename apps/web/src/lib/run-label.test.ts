import { describe, expect, it } from "vitest";
import { runHeaderLabel } from "./run-label.ts";
import { displayRunNumber, type InheritanceLink } from "./run-numbering.ts";

// A fork of main at main's run 3, where main's run 2 was a compaction: main's turns are 1, -, 2,
// so the fork counts on from 2 (its recorded offset).
const links: Record<string, InheritanceLink> = {
  main: null,
  fork: { sourceThreadId: "main", sourceRunOrdinal: 3, runOffset: 2 },
};
const aside: Record<string, { from: number; to: number }[]> = { main: [{ from: 2, to: 2 }] };
const inheritanceOf = (id: string) => links[id];
const asideRunsOf = (id: string) => aside[id];
const numberOf = (threadId: string, ordinal: number) =>
  displayRunNumber(threadId, ordinal, inheritanceOf, asideRunsOf);

describe("E3: run header labels", () => {
  it("E3: a compaction run is named, not numbered; the turns around it read 1 and 2", () => {
    const turn = (n: number) => ({ conversationNumber: n });
    expect(runHeaderLabel(turn(1), "main", 1, numberOf, asideRunsOf)).toBe("Run 1");
    expect(
      runHeaderLabel({ compact: true, conversationNumber: null }, "main", 2, numberOf, asideRunsOf),
    ).toBe("Compaction");
    expect(runHeaderLabel(turn(2), "main", 3, numberOf, asideRunsOf)).toBe("Run 2");
    expect(runHeaderLabel({ imported: true, conversationNumber: null }, "main", 1, numberOf)).toBe(
      "Imported turn",
    );
  });

  it("E3: inherited runs (no run row) are numbered from the source's shell, asides left unnumbered", () => {
    expect(runHeaderLabel(undefined, "main", 1, numberOf, asideRunsOf)).toBe("Run 1");
    expect(runHeaderLabel(undefined, "main", 2, numberOf, asideRunsOf)).toBe("Uncounted run");
    expect(runHeaderLabel(undefined, "main", 3, numberOf, asideRunsOf)).toBe("Run 2");
    expect(runHeaderLabel(undefined, "main", null, numberOf, asideRunsOf)).toBe("Run ?");
    // The fork's own run 1 without its detail number still reads as the third turn.
    expect(runHeaderLabel(undefined, "fork", 1, numberOf, asideRunsOf)).toBe("Run 3");
  });

  it("E3: an older fork without a recorded offset counts only its source's turns up to the fork point", () => {
    const old = (id: string): InheritanceLink | undefined =>
      id === "fork" ? { sourceThreadId: "main", sourceRunOrdinal: 3 } : undefined;
    expect(displayRunNumber("fork", 1, old, asideRunsOf)).toBe(3);
    // At the compaction itself, "after run N" means after the last turn before it.
    expect(displayRunNumber("main", 2, old, asideRunsOf)).toBe(1);
  });
});
