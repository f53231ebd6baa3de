import type { ThreadShell } from "../../lib/types.ts";

type Stat = NonNullable<ThreadShell["diffStat"]>;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/**
 * Issue 29: the thread's net change since its start (as the Review page's whole-thread diff
 * counts it), "+12 −3"; nothing when the thread changed no file.
 */
export function DiffStat({ stat }: { stat: Stat }) {
  if (stat.files === 0) return null;
  const label = `${plural(stat.additions, "line")} added, ${stat.deletions} removed, in ${plural(stat.files, "file")}`;
  return (
    <span className="row-diffstat" role="img" aria-label={label} title={label}>
      <span className="diff-added">+{stat.additions}</span>
      <span className="diff-removed">−{stat.deletions}</span>
    </span>
  );
}
