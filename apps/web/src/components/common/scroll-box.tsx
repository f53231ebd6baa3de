import type { ComponentProps } from "react";

// Blocks that scroll when their content is long or wide (code, command output, diffs, handoff
// text, tables) take keyboard focus, so the arrow keys scroll them (WCAG 2.1.1; axe's
// scrollable-region-focusable, issue 29 item 8). One place for the rule and its lint exception.

/** A `<pre>` that may scroll. */
export function ScrollPre(props: ComponentProps<"pre">) {
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
  return <pre tabIndex={0} {...props} />;
}

/** A `<div>` that may scroll. */
export function ScrollDiv(props: ComponentProps<"div">) {
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
  return <div tabIndex={0} {...props} />;
}
