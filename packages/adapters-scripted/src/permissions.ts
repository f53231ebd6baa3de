import type { RuntimeEvent, RuntimeRequestAnswer } from "@skein/domain/provider";

/**
 * A4: the scripted agent asks before running a command when the thread is `approval-required`
 * (`approval/request {threadId, itemId, command, cwd}`); Skein sees it as a `command` request on the
 * command's item, and its answer goes back as `{approved}`.
 */
export function approvalOpened(
  requestRef: string,
  params: Record<string, unknown>,
  sessionCwd: string,
): Extract<RuntimeEvent, { type: "request.opened" }> {
  const command = typeof params.command === "string" ? params.command : "";
  return {
    type: "request.opened",
    requestRef,
    kind: "command",
    itemRef: typeof params.itemId === "string" ? params.itemId : null,
    summary: `Run ${command}`,
    command,
    cwd: typeof params.cwd === "string" ? params.cwd : sessionCwd,
  };
}

/** Skein's answer in the agent's terms: only an acceptance runs the command. */
export function approvalAnswer(answer: RuntimeRequestAnswer): { approved: boolean } {
  return { approved: answer.decision === "accept" || answer.decision === "accept_for_session" };
}
