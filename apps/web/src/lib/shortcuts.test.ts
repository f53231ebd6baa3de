import { describe, expect, it } from "vitest";
import { chordLabel, matches, neighbourThread, SHORTCUTS } from "./shortcuts.ts";

const key = (init: Partial<KeyboardEvent>) =>
  ({
    key: "",
    code: "",
    metaKey: false,
    ctrlKey: false,
    altKey: false,
    shiftKey: false,
    ...init,
  }) as KeyboardEvent;

describe("keyboard shortcuts", () => {
  it("matches Ctrl on Linux/Windows and ⌘ on macOS for Mod", () => {
    expect(matches(SHORTCUTS.palette, key({ key: "k", ctrlKey: true }), false)).toBe(true);
    expect(matches(SHORTCUTS.palette, key({ key: "k", metaKey: true }), false)).toBe(false);
    expect(matches(SHORTCUTS.palette, key({ key: "k", metaKey: true }), true)).toBe(true);
    expect(matches(SHORTCUTS.palette, key({ key: "k" }), false)).toBe(false);
  });

  it("matches letters by physical key too (Alt+Shift+F types another character on a Mac)", () => {
    const event = key({ key: "Ï", code: "KeyF", altKey: true, shiftKey: true });
    expect(matches(SHORTCUTS.fork, event, true)).toBe(true);
    expect(matches(SHORTCUTS.fork, { ...event, shiftKey: false }, true)).toBe(false);
  });

  it("labels chords per platform", () => {
    expect(chordLabel(SHORTCUTS.palette, false)).toBe("Ctrl+K");
    expect(chordLabel(SHORTCUTS.palette, true)).toBe("⌘K");
    expect(chordLabel(SHORTCUTS.nextThread, false)).toBe("Alt+↓");
  });

  it("steps through threads in order and wraps around", () => {
    const order = ["a", "b", "c"];
    expect(neighbourThread(order, "a", 1)).toBe("b");
    expect(neighbourThread(order, "c", 1)).toBe("a");
    expect(neighbourThread(order, "a", -1)).toBe("c");
    expect(neighbourThread(order, null, 1)).toBe("a");
    expect(neighbourThread(order, "gone", -1)).toBe("c");
    expect(neighbourThread([], "a", 1)).toBeNull();
  });
});
