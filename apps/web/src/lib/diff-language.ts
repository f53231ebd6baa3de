import { grammarFor } from "./highlight.ts";

/** File names highlight.js knows by name rather than by extension. */
const BY_NAME: Record<string, string> = {
  dockerfile: "dockerfile",
  makefile: "makefile",
};

/** The highlight.js grammar for a changed file's path, or null to show it plain. */
export function languageOfPath(filePath: string): string | null {
  const name = filePath.split("/").pop()?.toLowerCase() ?? "";
  const byName = BY_NAME[name];
  if (byName) return grammarFor(byName);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  // highlight.js registers common extensions as aliases (ts, tsx, py, rs, yml, html…).
  return grammarFor(name.slice(dot + 1));
}
