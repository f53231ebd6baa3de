import {
  type DomainErrorCode,
  formatZodError,
  isDomainError,
  type ValidationIssue,
  zodIssues,
} from "@skein/domain";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { z } from "zod";
import { MAX_BODY_BYTES, MAX_TEXT_BYTES } from "./limits.ts";

const CODE_FOR_DOMAIN: Record<DomainErrorCode, TRPC_ERROR_CODE_KEY> = {
  validation: "BAD_REQUEST",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  invalid_transition: "CONFLICT",
  precondition_failed: "PRECONDITION_FAILED",
  capability_unsupported: "PRECONDITION_FAILED",
};

function domainCodeOf(error: unknown): DomainErrorCode | null {
  if (isDomainError(error)) return error.code;
  // Duck-typed too: an error from another copy of @skein/domain still carries its code.
  if (error instanceof Error && "code" in error && typeof error.code === "string") {
    return error.code in CODE_FOR_DOMAIN ? (error.code as DomainErrorCode) : null;
  }
  return null;
}

/**
 * The tRPC error for a domain failure (or a tRPC error already), keeping the original as `cause`
 * (the error formatter reads issues and the domain code from it); `null` for anything else. The
 * host maps its own failures (the store's) through `SkeinServices.mapError`.
 */
export function toTRPCError(error: unknown): TRPCError | null {
  if (error instanceof TRPCError) return error;
  const domainCode = domainCodeOf(error);
  if (domainCode !== null && error instanceof Error) {
    return new TRPCError({
      code: CODE_FOR_DOMAIN[domainCode],
      message: error.message,
      cause: error,
    });
  }
  return null;
}

/** Rethrows `error` as the mapped tRPC error when there is one. */
export function rethrowMapped(error: unknown): never {
  throw toTRPCError(error) ?? error;
}

export function domainCodeOfCause(cause: unknown): DomainErrorCode | null {
  return domainCodeOf(cause);
}

export function issuesOfCause(cause: unknown): ValidationIssue[] | null {
  if (cause instanceof Error && "issues" in cause && Array.isArray(cause.issues)) {
    return cause.issues.filter(
      (issue): issue is ValidationIssue =>
        typeof issue === "object" &&
        issue !== null &&
        typeof (issue as ValidationIssue).path === "string" &&
        typeof (issue as ValidationIssue).message === "string",
    );
  }
  return null;
}

/** A refusal in the API's own words: what every edge (HTTP, MCP, ACP) tells its caller. */
export type ApiError = {
  code: TRPC_ERROR_CODE_KEY;
  message: string;
  domainCode: DomainErrorCode | null;
  issues: ValidationIssue[] | null;
};

/** The words and codes of a failed procedure, as the API's error responses carry them. */
export function apiErrorOf(error: TRPCError): ApiError {
  const cause = error.cause;
  let message = error.message;
  let issues = issuesOfCause(cause);
  if (cause instanceof z.ZodError) {
    issues = zodIssues(cause);
    message = formatZodError(cause);
  } else if (error.code === "PAYLOAD_TOO_LARGE") {
    message =
      `request body exceeds ${MAX_BODY_BYTES} bytes; ` +
      `message texts are limited to ${MAX_TEXT_BYTES} bytes`;
  }
  return { code: error.code, message, domainCode: domainCodeOf(cause), issues };
}
