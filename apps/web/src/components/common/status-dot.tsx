import { STATUS_LABEL } from "../../lib/format.ts";
import type { ShellStatus } from "../../lib/types.ts";

/** A coloured dot for running / waiting / failed; idle threads get an empty ring. */
export function StatusDot({ status }: { status: ShellStatus }) {
  return (
    <span
      className={`status-dot status-${status}`}
      role="img"
      aria-label={STATUS_LABEL[status]}
      title={STATUS_LABEL[status]}
    />
  );
}
