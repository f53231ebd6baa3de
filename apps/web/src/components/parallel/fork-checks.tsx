"use client";
import { type FormEvent, useEffect, useState } from "react";
import { formatElapsed } from "../../lib/elapsed.ts";
import { readCheckCommand } from "../../lib/check-command-memory.ts";
import { ActionError } from "../common/action-error.tsx";
import type { CheckResult, ForkChecks } from "./use-fork-checks.ts";

/** The check command (the project's tests) and "Run checks", which runs it in every fork. */
export function CheckCommandForm({
  projectId,
  forkIds,
  checks,
}: {
  projectId: string | null;
  forkIds: readonly string[];
  checks: ForkChecks;
}) {
  const [command, setCommand] = useState("");
  // The project's remembered command, once it is known (the shells arrive after the first paint).
  useEffect(() => {
    if (projectId) setCommand(readCheckCommand(projectId));
  }, [projectId]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    checks.run(command, forkIds);
  };
  return (
    <form className="compare-checks" onSubmit={submit}>
      <label className="field">
        <span>Check command</span>
        <input
          aria-label="Check command"
          placeholder="e.g. pnpm test"
          spellCheck={false}
          value={command}
          onChange={(event) => setCommand(event.target.value)}
        />
      </label>
      <button
        type="submit"
        disabled={checks.running || command.trim() === "" || forkIds.length === 0}
      >
        {checks.running ? "Running checks…" : "Run checks"}
      </button>
      <span className="muted">Runs in every fork's worktree, one after another.</span>
      <ActionError error={checks.failure} prefix="The checks could not run." />
    </form>
  );
}

function verdict(check: CheckResult): { label: string; tone: "ok" | "bad" } {
  if (check.timedOut) return { label: "timed out", tone: "bad" };
  if (check.passed) return { label: "passed", tone: "ok" };
  return {
    label: check.exitCode === null ? "failed (killed)" : `failed (exit ${check.exitCode})`,
    tone: "bad",
  };
}

/** One fork's check: the verdict, its time, and the output's tail one click away. */
export function CheckCell({ check }: { check: CheckResult | undefined }) {
  if (!check) return <span className="muted">not run</span>;
  const { label, tone } = verdict(check);
  return (
    <div className="fork-check" data-verdict={tone}>
      <span className={`fork-check-verdict ${tone}`}>{label}</span>{" "}
      <span className="muted">{formatElapsed(check.durationMs)}</span>
      <details>
        <summary>Output</summary>
        {check.truncated && <p className="muted">The start is cut: its last part is kept.</p>}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
        <pre className="fork-check-output" tabIndex={0}>
          {check.output === "" ? "(no output)" : check.output}
        </pre>
      </details>
    </div>
  );
}
