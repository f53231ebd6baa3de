import { describe, expect, it } from "vitest";
import { displayRunNumber, type InheritanceLink, runOffset } from "./run-numbering.ts";

const links: Record<string, InheritanceLink> = {
  main: null,
  forkA: { sourceThreadId: "main", sourceRunOrdinal: 2 },
  forkB: { sourceThreadId: "forkA", sourceRunOrdinal: 3 },
  loopX: { sourceThreadId: "loopY", sourceRunOrdinal: 1 },
  loopY: { sourceThreadId: "loopX", sourceRunOrdinal: 1 },
};
const of = (id: string) => links[id];

describe("run numbering across forks", () => {
  it("a fork's own runs continue after the inherited ones", () => {
    expect(displayRunNumber("main", 1, of)).toBe(1);
    // Forked at main's run 2: its own run 1 is run 3.
    expect(displayRunNumber("forkA", 1, of)).toBe(3);
    // Forked at forkA's own run 3 (shown as 5): its own run 1 is run 6.
    expect(runOffset("forkB", of)).toBe(5);
    expect(displayRunNumber("forkB", 1, of)).toBe(6);
  });

  it("a fork the domain recorded its whole offset on needs no walk up its lineage", () => {
    // forkC's source is unknown here: only its recorded offset can give 7.
    const withOffset = (id: string): InheritanceLink | undefined =>
      id === "forkC" ? { sourceThreadId: "gone", sourceRunOrdinal: 2, runOffset: 7 } : undefined;
    expect(displayRunNumber("forkC", 1, withOffset)).toBe(8);
  });

  it("unknown sources count as no offset; a cycle in bad data ends", () => {
    expect(displayRunNumber("nowhere", 4, of)).toBe(4);
    expect(runOffset("loopX", of)).toBe(64);
  });
});
