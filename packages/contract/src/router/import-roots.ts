import type { ThreadExportDocument } from "@skein/domain";

/**
 * The project folders an export document would create: every `workspaceRoot` its project
 * streams' events carry (the project as created or later moved), as written.
 */
export function workspaceRootsOf(document: ThreadExportDocument): string[] {
  const roots = new Set<string>();
  for (const stream of document.streams) {
    if (!stream.streamId.startsWith("project-")) continue;
    for (const event of stream.events) collect(event.data, roots, 0);
  }
  return [...roots];
}

function collect(value: unknown, into: Set<string>, depth: number): void {
  if (depth > 4 || value === null || typeof value !== "object") return;
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (key === "workspaceRoot" && typeof member === "string") into.add(member);
    else collect(member, into, depth + 1);
  }
}
