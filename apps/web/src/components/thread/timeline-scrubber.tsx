"use client";
import type { TimeTravel } from "../../lib/use-time-travel.ts";
import { ActionError } from "../common/action-error.tsx";

function stopLabel(travel: TimeTravel): string {
  const { timeline, atSequence } = travel;
  if (atSequence === null || timeline === null) return "Live";
  const point = timeline.points.find((p) => p.sequence === atSequence);
  const when = point ? new Date(point.recordedAt).toLocaleTimeString() : "";
  return `As of event #${atSequence}${point ? ` (${point.type}, ${when})` : ""}`;
}

/**
 * B8: drag back through a thread's events and see it as it was; the right end, or "Live",
 * returns to the live thread. Arrow keys step one event at a time.
 */
export function TimelineScrubber({ travel }: { travel: TimeTravel }) {
  const { timeline, atSequence } = travel;
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
  const label = stopLabel(travel);
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
