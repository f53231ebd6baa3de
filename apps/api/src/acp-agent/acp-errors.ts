import { RequestError } from "@agentclientprotocol/sdk";
import { TRPCClientError } from "@trpc/client";

/** JSON-RPC codes ACP gives these refusals (invalid params, resource not found, internal). */
const INVALID_PARAMS = -32602;
const NOT_FOUND = -32002;
const INTERNAL = -32603;

/**
 * A Skein API refusal as the ACP error the editor shows, in the API's own words, with its tRPC
 * code and issues as data: bad input is invalid params, a missing thread not found, else internal.
 */
export function acpErrorOf(error: unknown): never {
  if (error instanceof RequestError) throw error;
  if (error instanceof TRPCClientError) {
    const data = error.data as { code?: string; issues?: unknown } | undefined;
    const detail = { code: data?.code ?? null, issues: data?.issues ?? null };
    const code =
      data?.code === "BAD_REQUEST"
        ? INVALID_PARAMS
        : data?.code === "NOT_FOUND"
          ? NOT_FOUND
          : INTERNAL;
    throw new RequestError(code, error.message, detail);
  }
  throw new RequestError(INTERNAL, error instanceof Error ? error.message : String(error));
}
