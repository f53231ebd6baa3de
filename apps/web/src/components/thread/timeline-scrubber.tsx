"use client";
import { useDebug } from "../../lib/debug-mode.tsx";
import type { TimeTravel } from "../../lib/use-time-travel.ts";
import { ActionError } from "../common/action-error.tsx";

/** "As of 10:41:03 (step 12 of 40)"; debug details add the event's number and name. */
export function stopLabel(travel: TimeTravel, debug: boolean): string {
  const { timeline, atSequence } = travel;
  if (atSequence === null || timeline === null) return "Live";
  const index = timeline.points.findIndex((p) => p.sequence === atSequence);
  const point = timeline.points[index];
  if (!point) return debug ? `As of event #${atSequence}` : "As of an earlier moment";
  const when = new Date(point.recordedAt).toLocaleTimeString();
  const step = `step ${index + 1} of ${timeline.points.length}`;
  return debug ? `As of event #${atSequence} (${point.type}, ${when})` : `As of ${when} (${step})`;
}

/**
 * B8: drag back through a thread's events and see it as it was; the right end, or "Live",
 * returns to the live thread. Arrow keys step one event at a time.
 */
export function TimelineScrubber({ travel }: { travel: TimeTravel }) {
  const { timeline, atSequence } = travel;
  const { debug } = useDebug();
  if (timeline === null) {
    return (
      <div className="timeline-bar">
        {travel.error ? (
          <ActionError error={travel.error} prefix="Cannot load the timeline." />
        ) : (
          <p className="muted">Loading the timeline…</p>
        )}
      </div>
    );
  }
  const { points } = timeline;
  // One stop past the last event: live.
  const index =
    atSequence === null ? points.length : points.findIndex((p) => p.sequence === atSequence);
  const label = stopLabel(travel, debug);
  return (
    <fieldset className="timeline-bar" aria-label="Timeline">
      <input
        type="range"
        className="timeline-range"
        min={0}
        max={points.length}
        step={1}
        value={index}
        aria-label="Show the thread as of event"
        aria-valuetext={label}
        onChange={(event) => {
          const at = Number(event.currentTarget.value);
          travel.moveTo(at >= points.length ? null : points[at]!.sequence);
        }}
      />
      <span className="timeline-label" data-at-sequence={atSequence ?? "live"}>
        {label}
        {atSequence !== null && travel.past?.snapshotSequence !== atSequence && " · loading…"}
      </span>
      <button type="button" onClick={() => travel.moveTo(null)} disabled={atSequence === null}>
        Live
      </button>
      {timeline.total > points.length && (
        <span className="muted">
          {points.length} of {timeline.total} events
        </span>
      )}
      <ActionError error={travel.error} prefix="Cannot show that moment." />
    </fieldset>
  );
}
