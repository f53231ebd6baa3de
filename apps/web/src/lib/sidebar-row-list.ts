import type { SidebarRow } from "./lineage-tree.ts";
import type { ThreadShell } from "./types.ts";

export type ProjectRow = Extract<SidebarRow, { kind: "project" }>;
export type ThreadRow = Extract<SidebarRow, { kind: "thread" }>;

/**
 * The sidebar's rows in order, each made when first read. Issue 29: the sidebar draws some 30
 * rows of 100,000, and making every row object (a key string and ten fields each) was most of
 * a full list's build; the order itself is two arrays. A row read twice is the same object.
 */
export class SidebarRowList {
  private readonly made: (SidebarRow | undefined)[];

  /**
   * `entries[i]` is a project heading (its row, with `depths[i]` -1) or a thread at depth
   * `depths[i]`, whose row `threadRow` makes.
   */
  constructor(
    private readonly entries: readonly (ProjectRow | ThreadShell)[],
    private readonly depths: readonly number[],
    private readonly threadRow: (shell: ThreadShell, depth: number) => ThreadRow,
  ) {
    this.made = new Array(entries.length);
  }

  get length(): number {
    return this.entries.length;
  }

  /** The row at `index` (0 ≤ index < length), as `Array.prototype.at` reads one. */
  at(index: number): SidebarRow | undefined {
    const made = this.made[index];
    if (made !== undefined) return made;
    const entry = this.entries[index];
    if (entry === undefined) return undefined;
    const depth = this.depths[index]!;
    const row = depth < 0 ? (entry as ProjectRow) : this.threadRow(entry as ThreadShell, depth);
    this.made[index] = row;
    return row;
  }

  /** Every row, made now (tests and one-off readers; the sidebar reads rows with `at`). */
  toArray(): SidebarRow[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i)!);
  }
}
