import { TRPCClientError } from "@trpc/client";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { createSkeinClient, type SkeinClient } from "../client.ts";
import {
  RemoteUnreachableError,
  type RuntimeRemote,
} from "../orchestrator/runtime/runtime-remote.ts";

/**
 * Marks a call one instance forwards to another (its value: the forwarding instance's id). The
 * receiver executes it only if it holds the runtime itself, never forwards it again, so two
 * instances with different views of a lease cannot bounce a command between them.
 */
export const FORWARDED_HEADER = "x-skein-forwarded-by";

/**
 * Runtime commands forwarded over the API itself, with the typed client: one client per peer
 * address, every call marked with this instance's id and the token all instances share.
 */
export function createHttpRuntimeRemote(options: {
  instanceId: string;
  apiToken: string | null;
}): RuntimeRemote {
  const clients = new Map<string, SkeinClient>();
  const clientFor = (address: string) => {
    let client = clients.get(address);
    if (!client) {
      client = createSkeinClient({
        url: address,
        ...(options.apiToken === null ? {} : { token: options.apiToken }),
        headers: { [FORWARDED_HEADER]: options.instanceId },
      });
      clients.set(address, client);
    }
    return client;
  };
  const call = async <T>(
    address: string,
    send: (client: SkeinClient) => Promise<T>,
  ): Promise<T> => {
    try {
      return await send(clientFor(address));
    } catch (error) {
      throw translate(error, address);
    }
  };
  return {
    steer: (address, input, signal) =>
      call(address, (client) => client.thread.steer.mutate(input, { signal })),
    interrupt: (address, input, signal) =>
      call(address, (client) => client.thread.interrupt.mutate(input, { signal })),
    respondToRequest: (address, input, signal) =>
      call(address, (client) => client.request.respond.mutate(input, { signal })),
    releaseProviderThread: (address, input, signal) =>
      call(address, (client) => client.runtime.releaseProviderThread.mutate(input, { signal })),
  };
}

type OwnerErrorData = {
  code?: TRPC_ERROR_CODE_KEY;
  domainCode?: string | null;
  issues?: unknown[] | null;
};

/** The owner's answer, as if this instance had given it; transport failures say why not. */
function translate(error: unknown, address: string): Error {
  const data = error instanceof TRPCClientError ? (error.data as OwnerErrorData) : undefined;
  if (error instanceof TRPCClientError && data?.code && data.code !== "UNAUTHORIZED") {
    // The cause carries the owner's domain code and issues, which the error formatter reads.
    const cause = Object.assign(new Error(error.message), {
      ...(data.domainCode ? { code: data.domainCode } : {}),
      ...(data.issues ? { issues: data.issues } : {}),
    });
    return new TRPCError({ code: data.code, message: error.message, cause });
  }
  const why =
    data?.code === "UNAUTHORIZED"
      ? "it refused this instance's API token (instances must share SKEIN_API_TOKEN)"
      : `it could not be reached at ${address} (${describe(error)})`;
  return new RemoteUnreachableError(why, { cause: error });
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : null;
  const text = error instanceof Error ? error.message : String(error);
  return cause && cause.message !== text ? `${text}: ${cause.message}` : text;
}
