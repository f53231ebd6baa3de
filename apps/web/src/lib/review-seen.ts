/**
 * "Changes since I last looked": the run whose changes the person last marked as seen, per
 * thread, kept in this browser's localStorage (review state is personal, not the thread's).
 */
const KEY = "skein.review.lastSeenRun.";

export function readLastSeenRun(threadId: string): string | null {
  try {
    return window.localStorage.getItem(KEY + threadId);
  } catch {
    // Storage can be disabled (private mode, policies): then nothing was ever seen.
    return null;
  }
}

export function writeLastSeenRun(threadId: string, runId: string): void {
  try {
    window.localStorage.setItem(KEY + threadId, runId);
  } catch {
    // Not remembered across reloads, which is all storage would have added.
  }
}
