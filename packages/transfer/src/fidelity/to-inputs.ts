import type { ProviderKind, Run, TurnItem } from "../inputs.ts";
import type { GeneratedThread } from "./generate.ts";

/** The generated thread as transfer reads it (runs and P6 turn items), as if recorded by `provider`. */
export function toTransferInputs(
  thread: GeneratedThread,
  options: { threadId: string; provider: ProviderKind; providerThreadId: string },
): { runs: Run[]; turnItems: TurnItem[] } {
  const runs: Run[] = [];
  const turnItems: TurnItem[] = [];
  thread.runs.forEach((gen, i) => {
    const ordinal = i + 1;
    const runId = `run_${options.threadId}_${ordinal}`;
    runs.push({
      id: runId,
      threadId: options.threadId,
      ordinal,
      provider: options.provider,
      providerThreadId: options.providerThreadId,
      status: "completed",
    });
    let k = 0;
    const item = (fields: Omit<TurnItem, "id" | "runId" | "runOrdinal">): TurnItem => ({
      id: `itm_${options.threadId}_${ordinal}_${k++}`,
      runId,
      runOrdinal: ordinal,
      ...fields,
    });
    turnItems.push(item({ type: "user_message", status: "completed", text: gen.user }));
    if (gen.todo)
      turnItems.push(
        item({ type: "plan", kind: "todo_list", status: "completed", steps: gen.todo }),
      );
    for (const c of gen.commands) {
      turnItems.push(
        item({
          type: "command_execution",
          status: c.exitCode === 0 ? "completed" : "failed",
          input: c.input,
          output: c.output,
          exitCode: c.exitCode,
        }),
      );
    }
    for (const f of gen.files) {
      turnItems.push(
        item({
          type: "file_change",
          status: "completed",
          fileName: f.fileName,
          additions: f.additions,
          deletions: f.deletions,
          diffStr: f.diff,
        }),
      );
    }
    turnItems.push(item({ type: "assistant_message", status: "completed", text: gen.assistant }));
  });
  return { runs, turnItems };
}
