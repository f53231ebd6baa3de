"use client";
import { toast } from "sonner";
import { describeError } from "./errors.ts";

/**
 * A failure nobody clicked for (a background re-read, a live view that lost its source): a toast
 * in words, one per `key` at a time so a retry loop updates it instead of stacking new ones.
 */
export function notifyBackgroundFailure(
  key: string,
  what: string,
  error: unknown,
  retry?: () => void,
): void {
  const failure = describeError(error);
  toast.error(`${what} ${failure.message}`, {
    id: key,
    description: failure.code === null ? undefined : failure.detail,
    ...(retry ? { action: { label: "Try again", onClick: retry } } : {}),
  });
}

export function clearBackgroundFailure(key: string): void {
  toast.dismiss(key);
}
