/**
 * Why a commit, push or pull-request step did not happen, in words a person can act on. `kind`
 * lets the API map each to its tRPC code; nothing was recorded as done when one is thrown.
 */
export type GitFinishErrorKind =
  | "not_a_repository"
  | "nothing_to_commit"
  | "no_identity"
  | "detached_head"
  | "branch_moved"
  | "no_remote"
  | "rejected"
  | "auth"
  | "no_token"
  | "no_repository"
  | "github"
  | "not_mergeable";

export class GitFinishError extends Error {
  override name = "GitFinishError";
  constructor(
    readonly kind: GitFinishErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
