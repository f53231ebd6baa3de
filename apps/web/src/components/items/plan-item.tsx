import { words } from "../../lib/format.ts";
import type { TurnItemOf } from "../../lib/types.ts";
import { Markdown } from "../common/markdown.tsx";

const STEP_MARK = { pending: "○", running: "◐", completed: "●" } as const;

/** Proposed plans (markdown) and todo lists (steps with their progress). */
export function PlanView({ item }: { item: TurnItemOf<"plan"> }) {
  return (
    <div className="plan">
      <div className="item-label">
        {item.kind === "todo_list" ? "Todo list" : words(item.kind)}{" "}
        <span className="muted">· {item.planStatus}</span>
      </div>
      {item.markdown && <Markdown text={item.markdown} />}
      {item.steps && item.steps.length > 0 && (
        <ol className="plan-steps">
          {item.steps.map((step) => (
            <li key={step.id} className={`step step-${step.status}`}>
              <span className="step-mark" role="img" aria-label={step.status}>
                {STEP_MARK[step.status]}
              </span>{" "}
              {step.text}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
