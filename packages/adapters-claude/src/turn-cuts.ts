import { readFile } from "node:fs/promises";
import { CapabilityUnsupportedError, type NativeTurnBoundary } from "@skein/domain/provider";
import type { ClaudeConfig } from "./config.ts";
import { cutEntryInTranscript } from "./transcript-history.ts";
import { transcriptPath } from "./transcripts.ts";

/**
 * E10: Claude has no turn ids. A turn's native ref is the uuid Skein gives its user message (known
 * before Claude answers, and kept as that entry's uuid in the transcript and in forks of it). A
 * fork or rewind, though, must name the turn's *last* entry to keep it whole; this maps one to the
 * other, from what this process saw or, after a restart, from the transcript.
 */
export class TurnCuts {
  private readonly ends = new Map<string, string>();

  constructor(private readonly config: ClaudeConfig) {}

  /** Remembers where a finished turn ended. */
  record(turnRef: string, lastEntryUuid: string | null): void {
    if (lastEntryUuid) this.ends.set(turnRef, lastEntryUuid);
  }

  /**
   * The entry to cut `nativeThreadRef` at so that `boundary`'s turn is the last one kept; null
   * means "keep everything" (the boundary is the latest turn). Throws CapabilityUnsupportedError
   * when the turn cannot be found, so callers fall back to portable context.
   */
  async cutAt(
    nativeThreadRef: string,
    boundary: NativeTurnBoundary | null,
    capability: "forkAtTurn" | "rollback",
    operation: string,
  ): Promise<string | null> {
    if (!boundary) return null;
    const ref = boundary.turn.nativeTurnRef;
    const known = ref
      ? (this.ends.get(ref) ?? (await this.fromTranscript(nativeThreadRef, ref)))
      : null;
    if (known) return known;
    const latest = Math.max(boundary.turn.ordinal, ...boundary.history.map((t) => t.ordinal));
    if (boundary.turn.ordinal === latest) return null;
    throw new CapabilityUnsupportedError(
      "claude",
      capability,
      operation,
      `turn ${boundary.turn.ordinal} is not in the transcript of ${nativeThreadRef}`,
    );
  }

  private async fromTranscript(nativeThreadRef: string, ref: string): Promise<string | null> {
    const path = transcriptPath(this.config, nativeThreadRef);
    if (!path) return null;
    return cutEntryInTranscript(await readFile(path, "utf8"), ref);
  }
}
