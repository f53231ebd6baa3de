import { type ApiFailure, describeError } from "../../lib/errors.ts";

/**
 * What went wrong with a button's or form's last call, in words, announced to screen readers;
 * the API's code sits in a folded details line for whoever files the bug.
 */
export function ActionError({
  error,
  prefix,
  onRetry,
}: {
  error: ApiFailure | string | null | undefined;
  prefix?: string;
  /** A read that gave up retrying on its own: the person can ask again. */
  onRetry?: () => void;
}) {
  if (!error) return null;
  const failure = typeof error === "string" ? describeError(error) : error;
  return (
    <div className="error action-error" role="alert">
      <p>
        {prefix ? `${prefix} ` : ""}
        {failure.message}
      </p>
      {onRetry && (
        <button type="button" className="small" onClick={onRetry}>
          Try again
        </button>
      )}
      {failure.code !== null && (
        <details className="error-detail">
          <summary>Details</summary>
          <code>{failure.detail}</code>
        </details>
      )}
    </div>
  );
}
