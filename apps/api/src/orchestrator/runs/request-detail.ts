import type { RuntimeEvent } from "@skein/domain/provider";

type Opened = Extract<RuntimeEvent, { type: "request.opened" }>;

/**
 * B16: what an approval approves, under its title: the command once (not again when the title
 * already says it), where it runs, and for a file change the diff it plans, file by file (a
 * `@@ path @@` line before each). Null when the provider said nothing more than the title.
 */
export function requestDetail(event: Opened): string | null {
  const lines: string[] = [];
  const title = event.summary ?? "";
  if (event.command && !title.includes(event.command)) lines.push(event.command);
  if (event.cwd) lines.push(`in ${event.cwd}`);
  const planned = (event.changes ?? []).filter((change) => change.diff);
  for (const change of planned) lines.push(`@@ ${change.path} @@`, change.diff!);
  if (lines.length === 0 && event.toolName && !title.includes(event.toolName)) {
    lines.push(event.toolName);
  }
  return lines.length > 0 ? lines.join("\n") : null;
}
