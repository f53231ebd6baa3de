/** The arguments `skein_history` takes; anything else is a tool error, never a failed run. */
export type HistoryCall =
  | { readonly op: "search"; readonly query: string }
  | { readonly op: "read"; readonly run: number; readonly thread?: number }
  | { readonly op: "files" };

export const HISTORY_TOOL_NAME = "skein_history";

/** The tool as offered to both runtimes (JSON schema, as `AppToolDefinition` takes it). */
export const HISTORY_TOOL = {
  name: HISTORY_TOOL_NAME,
  description:
    "Read-only access to the earlier runs of this conversation that Skein handed over. " +
    "op 'search' finds runs by words (query), op 'read' returns run N in full (run, and thread " +
    "when the handoff names several), op 'files' lists the changed files with their latest diff. " +
    "Answers are bounded in size; only the runs the handoff covers can be read.",
  inputSchema: {
    type: "object",
    properties: {
      op: { type: "string", enum: ["search", "read", "files"] },
      query: { type: "string" },
      run: { type: "integer", minimum: 1 },
      thread: { type: "integer", minimum: 1 },
    },
    required: ["op"],
    additionalProperties: false,
  },
} as const;

export class HistoryCallError extends Error {
  override readonly name = "HistoryCallError";
}

const MAX_QUERY_CHARS = 500;

function record(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw new HistoryCallError(
        'skein_history takes a JSON object, e.g. {"op":"search","query":"..."}',
      );
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HistoryCallError("skein_history takes an object with an op: search, read or files");
  }
  return value as Record<string, unknown>;
}

function positiveInt(value: unknown, name: string): number {
  if (typeof value === "string" && /^\d+$/.test(value.trim()))
    return positiveInt(Number(value), name);
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new HistoryCallError(`${name} must be a positive whole number`);
  }
  return value;
}

/** Checks a call's arguments; the message of a refusal says what the tool takes. */
export function parseHistoryCall(input: unknown): HistoryCall {
  const args = record(input);
  const allowed = new Set(["op", "query", "run", "thread"]);
  const unknown = Object.keys(args).filter((key) => !allowed.has(key));
  if (unknown.length > 0) throw new HistoryCallError(`unknown argument ${unknown.join(", ")}`);
  switch (args.op) {
    case "search": {
      if (typeof args.query !== "string" || args.query.trim().length === 0) {
        throw new HistoryCallError("search needs a non-empty query");
      }
      if (args.query.length > MAX_QUERY_CHARS) {
        throw new HistoryCallError(`query is longer than ${MAX_QUERY_CHARS} characters`);
      }
      return { op: "search", query: args.query };
    }
    case "read": {
      const run = positiveInt(args.run, "run");
      return args.thread === undefined
        ? { op: "read", run }
        : { op: "read", run, thread: positiveInt(args.thread, "thread") };
    }
    case "files":
      return { op: "files" };
    default:
      throw new HistoryCallError("op must be one of search, read, files");
  }
}
