import { StoreUnavailableError } from "../errors.ts";

/** SQLSTATE classes and codes meaning the connection or the server went away, not the query. */
const CONNECTION_CLASS = "08";
const SERVER_GONE = new Set(["57P01", "57P02", "57P03", "53300"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND"]);

/** True when `error` says the database connection was lost or could not be made. */
export function isConnectionFault(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (code.startsWith(CONNECTION_CLASS) || SERVER_GONE.has(code) || SOCKET_CODES.has(code)) {
      return true;
    }
  }
  return /Connection terminated|connection is closed|Client has encountered a connection error/i.test(
    error.message,
  );
}

/** The store's typed fault, or a driver error saying the database went away (a read's). */
export function isStoreFault(error: unknown): boolean {
  return error instanceof StoreUnavailableError || isConnectionFault(error);
}

/** A lost connection as the store's typed fault; anything else unchanged. */
export function asStoreFault(error: unknown): unknown {
  if (error instanceof StoreUnavailableError || !isConnectionFault(error)) return error;
  return new StoreUnavailableError(
    `the PostgreSQL connection was lost (${(error as Error).message})`,
    { cause: error },
  );
}
