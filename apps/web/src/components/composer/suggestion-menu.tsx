"use client";

export type Suggestion = { key: string; label: string; hint?: string };

/**
 * The popup over the message box for `/` commands and `@` mentions. The text box keeps focus
 * (arrows move, Enter or Tab picks, Esc closes, handled by the composer); a click picks too.
 */
export function SuggestionMenu({
  label,
  items,
  selected,
  onPick,
  empty,
}: {
  label: string;
  items: Suggestion[];
  selected: number;
  onPick(index: number): void;
  empty?: string;
}) {
  return (
    <div className="suggestion-menu" role="listbox" aria-label={label}>
      {items.length === 0 && empty && <div className="muted">{empty}</div>}
      {items.map((item, index) => (
        <div
          key={item.key}
          role="option"
          tabIndex={-1}
          aria-selected={index === selected}
          className={index === selected ? "selected" : undefined}
          // Mouse down, not click: the text box must not lose focus before the pick.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(index);
          }}
        >
          <span className="suggestion-label">{item.label}</span>
          {item.hint && <span className="muted"> {item.hint}</span>}
        </div>
      ))}
    </div>
  );
}
