import { currentTodoList, type Plan } from "../../lib/current-plan.ts";

/**
 * The agent's live todo list, kept in view above the composer while it works through it (the
 * conversation shows every update as an item; this is only the one in force).
 */
export function CurrentPlan({ plans }: { plans: readonly Plan[] }) {
  const plan = currentTodoList(plans);
  if (!plan) return null;
  const steps = plan.steps ?? [];
  const done = steps.filter((step) => step.status === "completed").length;
  return (
    <section className="current-plan" aria-label="Current plan">
      <span className="item-label">
        Plan <span className="muted">· {`${done}/${steps.length} done`}</span>
      </span>
      <ol className="plan-steps">
        {steps.map((step) => (
          <li key={step.id} className={`step step-${step.status}`}>
            {step.text}
            {step.status === "running" && <span className="badge">in progress</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
