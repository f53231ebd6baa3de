import type { ThreadDetail } from "./types.ts";

export type Plan = ThreadDetail["plans"][number];

/**
 * The todo list the agent is working through now (E17): the newest todo list of the thread's
 * latest window that is still in force (a later update supersedes it; a completed one is done).
 * Null when there is none, so the strip above the composer shows only live work.
 */
export function currentTodoList(plans: readonly Plan[]): Plan | null {
  for (let i = plans.length - 1; i >= 0; i -= 1) {
    const plan = plans[i]!;
    if (plan.kind !== "todo_list") continue;
    return plan.status === "active" || plan.status === "draft" ? plan : null;
  }
  return null;
}
