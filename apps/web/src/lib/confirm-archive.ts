/**
 * Archiving stops the thread's work (a running run is interrupted, queued ones are cancelled), so
 * it asks first; the thread itself can be brought back (Undo, or the sidebar's archived list).
 * The browser's own dialog: keyboard- and screen-reader-ready, and nothing to keep in sync.
 */
export function confirmArchive(title: string): boolean {
  return window.confirm(
    `Archive “${title}”? Its running and queued work stops; you can unarchive it later.`,
  );
}
