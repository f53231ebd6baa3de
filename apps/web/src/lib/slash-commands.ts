/** Issue 29: what a `/` typed at the start of the composer offers, each an existing action. */
export const SLASH_COMMANDS = [
  { name: "fork", hint: "Fork from the latest completed run" },
  { name: "plan", hint: "Turn plan mode on or off for the next message" },
  { name: "compact", hint: "Compact this thread's context now" },
  { name: "model", hint: "Pick the model for the next message" },
  { name: "switch", hint: "Switch provider for the next message" },
  { name: "review", hint: "Open the review page (diff, commit, pull request)" },
] as const;

export type SlashCommand = (typeof SLASH_COMMANDS)[number]["name"];

/**
 * The commands a composer text asks for: only while the whole text is one `/word` being typed
 * (a message that merely starts with a path such as `/etc/hosts` has a space or a second slash).
 * `null` means no menu.
 */
export function slashMatches(text: string): Array<(typeof SLASH_COMMANDS)[number]> | null {
  const match = /^\/([a-z]*)$/i.exec(text);
  if (!match) return null;
  const typed = (match[1] ?? "").toLowerCase();
  return SLASH_COMMANDS.filter((command) => command.name.startsWith(typed));
}
