import { apiErrorOf, appRouter, createCallerFactory, type RouterInputs } from "@skein/contract";
import { formatZodError, zodIssues } from "@skein/domain";
import type { CallToolResult, Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { TRPCError } from "@trpc/server";
import { z } from "zod";

/**
 * MCP tools over the API's own procedures: a tool's input is (or is cut from) the procedure's
 * zod input, it calls the procedure through a server-side tRPC caller, and a refusal comes back
 * as an MCP tool error in the API's words. The MCP layer holds no rules of its own.
 */

const createCaller = createCallerFactory(appRouter);
/** The router, called in-process with a context (auth, the calling agent) like any HTTP call. */
export type ApiCaller = ReturnType<typeof createCaller>;
export { createCaller };

/** `thread.create`, `review.diff`, …: a procedure by its path (a typo fails at module load). */
type ProcedurePath = `${keyof RouterInputs & string}.${string}`;

/**
 * A procedure's own input schema (the one the API validates with), unwrapped to its object. Its
 * parsed value is the procedure's input (`RouterInputs`), which a tool names as its `run` type:
 * tRPC keeps the parser's type out of the router's.
 */
export function inputOf(path: ProcedurePath): z.ZodObject {
  // At run time the record is flat, keyed by path (its type says nested).
  const procedures = appRouter._def.procedures as unknown as Record<
    string,
    { _def: { inputs: unknown[] } }
  >;
  const procedure = procedures[path];
  if (!procedure) throw new Error(`no procedure ${path}`);
  let schema = procedure._def.inputs[0];
  if (schema instanceof z.ZodOptional) schema = schema.unwrap();
  if (!(schema instanceof z.ZodObject)) throw new Error(`${path} takes no object input`);
  return schema;
}

/** What a running tool gets: the API as its caller, and when the call is given up. */
export type ToolCall = {
  api: ApiCaller;
  /** Aborted when the MCP client cancels the call or the session ends. */
  signal: AbortSignal;
  /** The same API, its subscriptions ended by `signal` (for a bounded watch). */
  apiUntil(signal: AbortSignal): ApiCaller;
};

export type SkeinTool<Args = unknown> = {
  name: string;
  description: string;
  /** Checked before `run`; its parsed value is `Args`. */
  input: z.ZodType;
  annotations: ToolAnnotations;
  run(args: Args, call: ToolCall): Promise<object>;
};

/**
 * A tool whose arguments are `Args`: a procedure's input (`RouterInputs[…]`) when `input` is that
 * procedure's schema or a cut of it, else the output of its own schema.
 */
export function defineTool<Args>(tool: SkeinTool<Args>): SkeinTool {
  return tool as SkeinTool;
}

/** Annotations: a read, or a command (idempotent under its `commandId`). */
export const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
export const COMMAND: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** `tools/list`: each tool's input as JSON Schema (the input side of its zod schema). */
export function describeTool(tool: SkeinTool): Tool {
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(tool.input, {
    io: "input",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema as Tool["inputSchema"],
    annotations: tool.annotations,
  };
}

function result(value: object): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

/** A refusal as an MCP tool error: the API's code and words, its issues alongside. */
function refusal(error: ReturnType<typeof apiErrorOf>): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: `${error.code}: ${error.message}` }],
    structuredContent: { error },
  };
}

/**
 * `tools/call`: the arguments are checked with the tool's schema (a refusal reads exactly as the
 * API's BAD_REQUEST), then the tool runs; a TRPCError from the API becomes a tool error with its
 * words, anything else an internal error whose details go to the log only.
 */
export async function callTool(
  tool: SkeinTool,
  args: unknown,
  call: ToolCall,
  onInternal: (error: unknown) => void,
): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    return refusal({
      code: "BAD_REQUEST",
      message: formatZodError(parsed.error),
      domainCode: null,
      issues: zodIssues(parsed.error),
    });
  }
  try {
    return result(await tool.run(parsed.data, call));
  } catch (error) {
    if (error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR") {
      return refusal(apiErrorOf(error));
    }
    onInternal(error);
    return refusal({
      code: "INTERNAL_SERVER_ERROR",
      message: "Skein failed to run this tool; the server log has the details",
      domainCode: null,
      issues: null,
    });
  }
}
