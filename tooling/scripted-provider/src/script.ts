import type { ProviderFailureKind, RuntimeQuestion, TurnInput } from "@skein/domain/provider";

/** One scripted action of a turn; a turn's script runs its steps in order. */
export type ScriptStep =
  | { type: "text"; text: string; chunks?: number; delayMs?: number }
  | { type: "reasoning"; text: string }
  | {
      type: "command";
      command: string;
      output: string;
      exitCode?: number;
      /** Ask for approval first when the thread runs in approval-required mode. */
      approval?: boolean;
    }
  | {
      type: "file_change";
      path: string;
      diff: string;
      approval?: boolean;
      /** Really writes the file under the thread's cwd (null deletes it), as an agent would. */
      content?: string | null;
    }
  | {
      type: "plan";
      steps: Array<{ text: string; status: "pending" | "running" | "completed" }>;
    }
  | { type: "question"; questions: RuntimeQuestion[] }
  | { type: "app_tool"; toolName: string; input: unknown }
  | { type: "subagent"; description: string; steps: ScriptStep[] }
  | { type: "wait"; ms: number }
  /** The turn fails with `error`; `kind` is how the script's adapter reads it (B2). */
  | { type: "fail"; error: string; kind?: ProviderFailureKind };

/** What a reply function sees: the turn's input and the native thread's earlier turns. */
export type ScriptContext = {
  nativeThreadRef: string;
  input: TurnInput;
  history: ReadonlyArray<{ input: TurnInput; assistantText: string }>;
};

export type ReplyFn = (context: ScriptContext) => ScriptStep[];

export const echoReply: ReplyFn = ({ input }) => [{ type: "text", text: `ok: ${input.text}` }];

/** A step that really writes `path` under the thread's cwd (null deletes it), with no diff text. */
export const writeFile = (path: string, content: string | null): ScriptStep => ({
  type: "file_change",
  path,
  diff: "",
  content,
});
