import type { z } from "zod";
// One typed error for "the provider cannot do this" (issue 3); it lives with the provider interface.
import { CapabilityUnsupportedError } from "./provider/capabilities.ts";

export { CapabilityUnsupportedError };

/**
 * Typed domain errors. `decide` never throws them across its boundary: it returns
 * `{ ok: false, error }`. The `code` is what the API maps to a tRPC error code.
 */
export type DomainErrorCode =
  | "invalid_transition"
  | "not_found"
  | "conflict"
  | "validation"
  | "capability_unsupported"
  | "precondition_failed";

abstract class DomainErrorBase extends Error {
  abstract readonly code: DomainErrorCode;
}

/** A status change that the entity's transition table does not allow. */
export class InvalidTransitionError extends DomainErrorBase {
  readonly code = "invalid_transition";
  constructor(
    readonly entity: string,
    readonly from: string,
    readonly to: string,
    readonly entityId: string | null = null,
  ) {
    super(`${entity}${entityId ? ` ${entityId}` : ""} cannot go from "${from}" to "${to}"`);
    this.name = "InvalidTransitionError";
  }
}

export class NotFoundError extends DomainErrorBase {
  readonly code = "not_found";
  constructor(
    readonly entity: string,
    readonly id: string,
  ) {
    super(`${entity} ${id} not found`);
    this.name = "NotFoundError";
  }
}

/** The command would create something that already exists, or contradicts a recorded fact. */
export class ConflictError extends DomainErrorBase {
  readonly code = "conflict";
  constructor(message: string) {
    super(message);
    this.name = "ConflictError";
  }
}

export type ValidationIssue = { path: string; message: string };

/**
 * B9: bringing a fork's code back would conflict with the target workspace. Raised before
 * anything is applied; `files` (also as `issues`, one per file, for the API's error data) are
 * workspace-relative paths changed on both sides.
 */
export class MergeConflictError extends ConflictError {
  readonly issues: ValidationIssue[];
  constructor(
    message: string,
    readonly files: readonly string[],
  ) {
    super(message);
    this.name = "MergeConflictError";
    this.issues = files.map((path) => ({ path, message: "changed on both sides" }));
  }
}

export class ValidationError extends DomainErrorBase {
  readonly code = "validation";
  constructor(
    message: string,
    readonly issues: ValidationIssue[] = [{ path: "", message }],
  ) {
    super(message);
    this.name = "ValidationError";
  }
}

/** The entities exist and the transition is legal in general, but not in the current situation. */
export class PreconditionFailedError extends DomainErrorBase {
  readonly code = "precondition_failed";
  constructor(message: string) {
    super(message);
    this.name = "PreconditionFailedError";
  }
}

export type DomainError =
  | InvalidTransitionError
  | NotFoundError
  | ConflictError
  | ValidationError
  | CapabilityUnsupportedError
  | PreconditionFailedError;

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof DomainErrorBase || value instanceof CapabilityUnsupportedError;
}

export type Result<T, E = DomainError> = { ok: true; value: T } | { ok: false; error: E };

/** The result of `decide`: the events to append, or why nothing may be appended. */
export type DecideResult<E> = { ok: true; events: E[] } | { ok: false; error: DomainError };

/**
 * Command handlers throw typed domain errors for early exit; this boundary turns them into a
 * Result so nothing throws out of `decide`. Anything else is a bug and propagates.
 */
export function guarded<E>(run: () => E[]): DecideResult<E> {
  try {
    return { ok: true, events: run() };
  } catch (error) {
    if (isDomainError(error)) return { ok: false, error };
    throw error;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** `path.to.field: message` per issue, one per line; `(root)` for issues on the value itself. */
export function formatZodError(error: z.ZodError): string {
  return zodIssues(error)
    .map((issue) => `${issue.path === "" ? "(root)" : issue.path}: ${issue.message}`)
    .join("\n");
}

export function zodIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/** Parses untrusted input into a Result with a path-qualified ValidationError. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
): Result<z.output<S>, ValidationError> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    error: new ValidationError(formatZodError(parsed.error), zodIssues(parsed.error)),
  };
}
