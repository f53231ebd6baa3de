/**
 * Values computed from a text, kept by that text, least recently used first, bounded by the
 * total length of the texts kept (a few long texts weigh what many short ones do). A text longer
 * than the bound is computed and not kept.
 */
export type TextKeyedCache<V> = {
  /** The value kept for `text`, or `compute(text)`, kept from now on. */
  get(text: string, compute: (text: string) => V): V;
  /** Texts kept, least recently used first (for tests). */
  keys(): string[];
};

export function textKeyedCache<V>(maxChars: number): TextKeyedCache<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recent first.
  const kept = new Map<string, V>();
  let chars = 0;
  return {
    get(text, compute) {
      if (kept.has(text)) {
        const hit = kept.get(text) as V;
        kept.delete(text);
        kept.set(text, hit);
        return hit;
      }
      const value = compute(text);
      if (text.length > maxChars) return value;
      kept.set(text, value);
      chars += text.length;
      for (const oldest of kept.keys()) {
        if (chars <= maxChars) break;
        kept.delete(oldest);
        chars -= oldest.length;
      }
      return value;
    },
    keys: () => [...kept.keys()],
  };
}
