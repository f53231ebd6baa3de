import type { HandoffPayload } from "@skein/domain";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import "./handoff-overview.css";

type Brief = NonNullable<HandoffPayload["brief"]>;
type Section = keyof Brief["left"];

const SECTIONS: readonly { key: Section; label: string }[] = [
  { key: "goal", label: "Goal" },
  { key: "files", label: "State of the code" },
  { key: "decisions", label: "Decisions in force" },
  { key: "constraints", label: "Constraints in force" },
  { key: "preferences", label: "Preferences" },
  { key: "openTasks", label: "Open tasks" },
  { key: "errors", label: "Recent errors" },
  { key: "closed", label: "No longer current" },
];

function runRanges(list: HandoffPayload["omitted"]): string {
  return list
    .flatMap((t) =>
      t.runs.map((r) => (r.from === r.to ? `run ${r.from}` : `runs ${r.from}–${r.to}`)),
    )
    .join(", ");
}

/** Who wrote the text, and why a provider's summary was not used. */
function Authorship({ payload }: { payload: HandoffPayload }) {
  const a = payload.authorship;
  if (!a) return null;
  if (a.by === "provider") {
    return (
      <p className="handoff-authorship">
        Written by {a.provider ? PROVIDER_LABEL[a.provider] : "the source provider"} from its own
        thread (a side turn on a fork; the source is untouched). Review it before it is used.
      </p>
    );
  }
  return (
    <p className="handoff-authorship fallback" role="status">
      Skein's handoff stands in: {a.provider ? PROVIDER_LABEL[a.provider] : "the provider"} could
      not write one ({a.fallbackReason ?? "no reason recorded"}).
    </p>
  );
}

/**
 * Issue 25: what a handoff carries at a glance: its sections with how many items each holds and
 * how many were left out, the budget used, and which runs the transcript left out (all of it
 * still readable by the target through skein_history when offered).
 */
export function HandoffOverview({ payload }: { payload: HandoffPayload }) {
  const brief = payload.brief;
  const tokens = payload.tokens;
  const share = tokens ? Math.min(100, Math.round((tokens.used / tokens.budget) * 100)) : null;
  const leftOut = runRanges(payload.omitted);
  return (
    <section className="handoff-overview" aria-label="What the handoff carries">
      <Authorship payload={payload} />
      {tokens && (
        <div className="handoff-budget">
          <span>
            Budget: {tokens.used.toLocaleString("en")} of {tokens.budget.toLocaleString("en")}{" "}
            tokens
          </span>
          <meter min={0} max={100} value={share ?? 0} aria-label="Share of the budget used" />
        </div>
      )}
      {brief && (
        <ul className="handoff-sections">
          {SECTIONS.map(({ key, label }) => {
            const shown = key === "goal" ? brief.goal.length : brief[key].length;
            const left = brief.left[key];
            if (shown === 0 && left === 0) return null;
            return (
              <li key={key} data-section={key}>
                <strong>{label}</strong> {shown}
                {left > 0 && <span className="left-out"> (+{left} left out)</span>}
              </li>
            );
          })}
          {brief.lastExchange && (
            <li data-section="lastExchange">
              <strong>Last exchange</strong> run {brief.lastExchange.run.ordinal}, verbatim
            </li>
          )}
        </ul>
      )}
      {leftOut && (
        <p className="muted" data-testid="handoff-left-out">
          Transcript left out for length: {leftOut}.
          {payload.historyTool
            ? " It stays retrievable: the target can search and read it with skein_history."
            : ""}
        </p>
      )}
    </section>
  );
}
