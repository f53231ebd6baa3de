"use client";
import { type KeyboardEvent, useEffect, useState } from "react";

/**
 * Keyboard state of a suggestion popup over the message box: which entry is selected, and whether
 * Esc closed it for the text as it stands (typing again reopens it). `onKeyDown` answers whether
 * it took the key, so Enter picks rather than sends while the popup is open.
 */
export function useSuggestions(
  trigger: string | null,
  count: number,
  pick: (index: number) => void,
) {
  const [selected, setSelected] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  // A new query starts at the top, and a popup closed for another text opens again.
  useEffect(() => {
    setSelected(0);
    setClosedFor((closed) => (closed === trigger ? closed : null));
  }, [trigger]);
  const open = trigger !== null && closedFor !== trigger;
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === "Escape") {
      event.preventDefault();
      setClosedFor(trigger);
      return true;
    }
    if (count === 0) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : count - 1;
      setSelected((index) => (index + step) % count);
      return true;
    }
    if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") {
      event.preventDefault();
      pick(Math.min(selected, count - 1));
      return true;
    }
    return false;
  };
  return { open, selected: Math.min(selected, Math.max(count - 1, 0)), onKeyDown };
}
