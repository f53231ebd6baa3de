import type { RuntimeEvent, RuntimeFileChange } from "@skein/domain/provider";

type Opened = Extract<RuntimeEvent, { type: "request.opened" }>;

/**
 * The planned diffs an approval's detail holds, all files together. The detail is recorded in
 * the thread's log and read back with every view of it, so a huge write is named, not copied.
 */
export const MAX_REQUEST_DIFF_CHARS = 20_000;

/** What stands for a file's diff that does not fit, with its counts where the provider gave them. */
function tooLarge(change: RuntimeFileChange): string {
  const counts =
    change.additions !== undefined || change.deletions !== undefined
      ? ` (+${change.additions ?? 0} −${change.deletions ?? 0})`
      : "";
  return `diff too large to show here${counts}`;
}

/**
 * B16: what an approval approves, under its title: the command once (not again when the title
 * already says it), where it runs, and for a file change the diff it plans, file by file (a
 * `@@ path @@` line before each), as long as the diffs fit in MAX_REQUEST_DIFF_CHARS together;
 * a file past that says "diff too large". Null when the provider said nothing more than the title.
 */
export function requestDetail(event: Opened): string | null {
  const lines: string[] = [];
  const title = event.summary ?? "";
  if (event.command && !title.includes(event.command)) lines.push(event.command);
  if (event.cwd) lines.push(`in ${event.cwd}`);
  const planned = (event.changes ?? []).filter((change) => change.diff);
  let budget = MAX_REQUEST_DIFF_CHARS;
  for (const change of planned) {
    const diff = change.diff!;
    const fits = diff.length <= budget;
    if (fits) budget -= diff.length;
    lines.push(`@@ ${change.path} @@`, fits ? diff : tooLarge(change));
  }
  if (lines.length === 0 && event.toolName && !title.includes(event.toolName)) {
    lines.push(event.toolName);
  }
  return lines.length > 0 ? lines.join("\n") : null;
}
