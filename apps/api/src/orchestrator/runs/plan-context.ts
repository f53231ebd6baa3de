import type { Run, ThreadState } from "@skein/domain";

/**
 * B5 "implement this plan": what the provider is sent for a run with a `sourcePlanRef`. The plan
 * goes in full ahead of the person's words, so the implementing provider has it whatever it saw
 * before (its own native history, a handoff that caps plans, or nothing); the user message
 * recorded in the thread stays as typed.
 */
export function turnTextOf(state: ThreadState, run: Run, text: string): string {
  const ref = run.sourcePlanRef;
  if (!ref) return text;
  const markdown = state.plans.get(ref.planId)?.markdown?.trim();
  if (!markdown) return text;
  return [
    "Implement this plan, which you (or another agent) proposed and the user accepted:",
    "",
    "<accepted_plan>",
    markdown,
    "</accepted_plan>",
    "",
    text,
  ].join("\n");
}
