/** Input bounds; the API refuses anything larger with a message that names the limit. */

/** A message, steer or handoff text; far above any prompt a person types or pastes. */
export const MAX_TEXT_BYTES = 256 * 1024;

/** One HTTP request body (a batch of calls); larger bodies get 413 before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** `thread.import` alone (a whole thread's history in one document) may send this much. */
export const MAX_IMPORT_BODY_BYTES = 256 * 1024 * 1024;

/**
 * A resume whose cursor lags the log by more than this gets a fresh snapshot instead of a replay:
 * re-reading a snapshot is cheaper than streaming thousands of events the client then folds.
 */
export const MAX_REPLAY_EVENTS = 5_000;

/** SSE keep-alive; must stay below the client's reconnect-after-inactivity. */
export const SSE_PING_MS = 5_000;
export const SSE_RECONNECT_AFTER_INACTIVITY_MS = 15_000;

/** Threads one page of `thread.shells` may hold (B7). */
export const MAX_SHELL_PAGE = 500;

/** Runs one window of `thread.detail` may hold (B7). */
export const MAX_WINDOW_RUNS = 500;

/** The longest a `thread.compare` check command may run in one worktree. */
export const CHECK_MAX_TIMEOUT_MS = 600_000;

/** Sessions `provider.sessions` lists per call at most: a picker shows the recent ones. */
export const MAX_LISTED_SESSIONS = 100;

/** Files `workspace.searchFiles` answers per call at most: a mention popup shows a handful. */
export const MAX_FILE_MATCHES = 50;
