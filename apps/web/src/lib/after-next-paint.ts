/** A hidden tab gets no animation frames; the wait ends after this long without one. */
const HIDDEN_FALLBACK_MS = 250;

/** Resolves once the next frame has been painted (or, in a hidden tab, after a while). */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, HIDDEN_FALLBACK_MS);
    // A task queued from the frame's callback runs after that frame is painted.
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}
