import { ConflictError, PreconditionFailedError, ValidationError } from "@skein/domain";
import { GitFinishError } from "@skein/git-finish";

/**
 * A git or GitHub failure as the domain error the API maps to a tRPC code, with its words kept:
 * a refusal ends the command (nothing was recorded, its intent is cleared).
 */
export function asDomainError(error: unknown): unknown {
  if (!(error instanceof GitFinishError)) return error;
  switch (error.kind) {
    case "rejected":
    case "branch_moved":
      return new ConflictError(error.message);
    case "no_repository":
      return new ValidationError(error.message, [{ path: "repository", message: error.message }]);
    default:
      return new PreconditionFailedError(error.message);
  }
}

export async function inWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asDomainError(error);
  }
}
