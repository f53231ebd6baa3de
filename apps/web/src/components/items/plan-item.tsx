import { words } from "../../lib/format.ts";
import type { TurnItemOf } from "../../lib/types.ts";
import { Markdown } from "../common/markdown.tsx";
import { ImplementPlan } from "./implement-plan.tsx";

const STEP_STATE = { pending: "to do", running: "in progress", completed: "done" } as const;

/**
 * Proposed plans (markdown, with "Implement" while active) and todo lists (a checklist of steps
 * with their progress).
 */
export function PlanView({ item }: { item: TurnItemOf<"plan"> }) {
  const steps = item.steps ?? [];
  const done = steps.filter((step) => step.status === "completed").length;
  return (
    <div className={`plan plan-${item.kind} plan-status-${item.planStatus}`}>
      <div className="item-label">
        {item.kind === "todo_list" ? "Todo list" : words(item.kind)}{" "}
        <span className="muted">
          · {item.planStatus}
          {steps.length > 0 && ` · ${done}/${steps.length} done`}
        </span>
      </div>
      {item.markdown && <Markdown text={item.markdown} />}
      {steps.length > 0 && (
        <ul className="checklist plan-steps">
          {steps.map((step) => (
            <li key={step.id} className={`step step-${step.status}`}>
              <input
                type="checkbox"
                checked={step.status === "completed"}
                disabled
                aria-label={`${step.text}: ${STEP_STATE[step.status]}`}
              />
              <span>{step.text}</span>
              {step.status === "running" && <span className="badge">in progress</span>}
            </li>
          ))}
        </ul>
      )}
      {item.kind === "proposed_plan" && <ImplementPlan item={item} />}
    </div>
  );
}
