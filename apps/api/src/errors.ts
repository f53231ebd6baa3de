import { toTRPCError as toContractError } from "@skein/contract";
import {
  ConcurrencyError,
  ReceiptConflictError,
  isStoreFault,
  StoreClosedError,
  SubscriberOverflow,
} from "@skein/db";
import { TRPCError } from "@trpc/server";

/**
 * The store's failures as tRPC errors (the contract maps domain errors itself), keeping the
 * original as `cause`; `null` for anything else, which tRPC reports as INTERNAL_SERVER_ERROR.
 */
export function storeErrorToTRPC(error: unknown): TRPCError | null {
  if (error instanceof ReceiptConflictError) {
    return new TRPCError({ code: "CONFLICT", message: error.message, cause: error });
  }
  if (error instanceof ConcurrencyError) {
    return new TRPCError({
      code: "CONFLICT",
      message: `${error.message}; someone else changed it first, retry with fresh state`,
      cause: error,
    });
  }
  if (error instanceof StoreClosedError) {
    return new TRPCError({
      code: "SERVICE_UNAVAILABLE",
      message: "server is shutting down",
      cause: error,
    });
  }
  if (isStoreFault(error)) {
    // Issue 35: nothing was acknowledged; the person can retry once the database is back.
    return new TRPCError({
      code: "SERVICE_UNAVAILABLE",
      message: `${error instanceof Error ? error.message : String(error)}; nothing was changed, retry shortly`,
      cause: error,
    });
  }
  if (error instanceof SubscriberOverflow) {
    return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: error.message, cause: error });
  }
  return null;
}

/** Domain failures first (as the contract maps them), then the store's. */
export function toTRPCError(error: unknown): TRPCError | null {
  return toContractError(error) ?? storeErrorToTRPC(error);
}

/** Rethrows `error` as the mapped tRPC error when there is one (inside the host's streams). */
export function rethrowMapped(error: unknown): never {
  throw toTRPCError(error) ?? error;
}
