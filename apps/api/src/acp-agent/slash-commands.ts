import type { AvailableCommand } from "@agentclientprotocol/sdk";

/**
 * Skein's own actions on a session's thread, offered to the editor as slash commands
 * (`available_commands_update`): fork it, switch its provider, bring a fork's work back. Any other
 * `/text` is an ordinary message (the provider may have slash commands of its own).
 */

export type SlashCommand =
  | { name: "fork"; title: string | null }
  | { name: "switch"; provider: string }
  | { name: "bring-back"; forkThreadId: string; text: string | null };

export function slashCommands(providers: readonly string[]): AvailableCommand[] {
  return [
    {
      name: "fork",
      description:
        "Fork this thread at its latest stable point into a new thread (load that session to continue there)",
      input: { hint: "title (optional)" },
    },
    {
      name: "switch",
      description: "Continue this thread on another provider; the next message carries a handoff",
      input: { hint: providers.join(" | ") },
    },
    {
      name: "bring-back",
      description: "Bring a fork's work back into this thread as its next message",
      input: { hint: "fork thread id, then an optional message" },
    },
  ];
}

/** The Skein command a prompt names, or null for an ordinary message. */
export function parseSlash(text: string): SlashCommand | null {
  const match = /^\/(fork|switch|bring-back)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  const rest = (match[2] ?? "").trim();
  switch (match[1]) {
    case "fork":
      return { name: "fork", title: rest === "" ? null : rest };
    case "switch":
      return { name: "switch", provider: rest };
    default: {
      const [forkThreadId = "", ...words] = rest.split(/\s+/);
      const message = words.join(" ").trim();
      return { name: "bring-back", forkThreadId, text: message === "" ? null : message };
    }
  }
}
