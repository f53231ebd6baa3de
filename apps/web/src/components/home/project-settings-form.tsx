"use client";
import { RadioChoice } from "../common/radio-choice.tsx";
import { type FormEvent, useEffect, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useShells } from "../../lib/shells-store.tsx";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";

const DEFAULT_COPY = [".env*"];
const DEFAULT_RANGE = { from: 3100, to: 3199 };

/**
 * Issue 26: how the project's new threads get their workspace: their own worktree or the
 * folder, a setup script run once per worktree, files copied in, and the PORT range. Issue 25
 * item 3: who writes a handoff when the person does not choose on the transfer itself.
 */
export function ProjectSettingsForm({ projectId }: { projectId: string }) {
  const client = useApi();
  const { projects, refreshProjects } = useShells();
  const project = projects.find((p) => p.id === projectId);
  const settings = project?.settings;
  const [workspace, setWorkspace] = useState<"worktree" | "local">("worktree");
  const [script, setScript] = useState("");
  const [copy, setCopy] = useState(DEFAULT_COPY.join("\n"));
  const [ports, setPorts] = useState(`${DEFAULT_RANGE.from}-${DEFAULT_RANGE.to}`);
  const [repository, setRepository] = useState("");
  const [handoffWriter, setHandoffWriter] = useState<"skein" | "provider">("skein");
  const [saved, setSaved] = useState(false);
  const action = useAction();

  useEffect(() => {
    if (!settings) return;
    setWorkspace(settings.threadWorkspace);
    setScript(settings.setupScript ?? "");
    setCopy(settings.copyFiles.join("\n"));
    setPorts(settings.portRange ? `${settings.portRange.from}-${settings.portRange.to}` : "");
    setRepository(settings.githubRepository ?? "");
    setHandoffWriter(settings.handoffWriter ?? "skein");
  }, [settings]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void action.run(async () => {
      const range = ports.trim();
      const match = /^(\d+)\s*-\s*(\d+)$/.exec(range);
      if (range !== "" && !match) {
        throw new Error(
          "The port range is two numbers with a dash, e.g. 3100-3199 (or empty for none).",
        );
      }
      await client.project.updateSettings.mutate({
        projectId,
        settings: {
          threadWorkspace: workspace,
          setupScript: script.trim() ? script : null,
          copyFiles: copy
            .split("\n")
            .map((line) => line.trim())
            .filter(Boolean),
          portRange: match ? { from: Number(match[1]), to: Number(match[2]) } : null,
          githubRepository: repository.trim() ? repository.trim() : null,
          handoffWriter,
        },
      });
      refreshProjects();
      setSaved(true);
    });
  };

  return (
    <details className="panel project-settings">
      <summary>Project settings: thread workspaces and handoffs</summary>
      <form className="form" onSubmit={submit}>
        <RadioChoice
          legend="New threads work in"
          name="project-thread-workspace"
          value={workspace}
          onChange={setWorkspace}
          options={[
            { value: "worktree", label: "Their own worktree (git projects)" },
            { value: "local", label: "The project's folder" },
          ]}
        />
        <label>
          Setup script, run once in each new worktree (e.g. pnpm install)
          <textarea value={script} onChange={(e) => setScript(e.target.value)} rows={3} />
        </label>
        <label>
          Files copied into each new worktree, one per line (never over a file already there)
          <textarea value={copy} onChange={(e) => setCopy(e.target.value)} rows={3} />
        </label>
        <label>
          PORT range, one port per open thread (empty: none)
          <input value={ports} onChange={(e) => setPorts(e.target.value)} placeholder="3100-3199" />
        </label>
        <label>
          GitHub repository for pull requests, owner/name (empty: read from the push remote)
          <input
            value={repository}
            onChange={(e) => setRepository(e.target.value)}
            placeholder="owner/name"
            maxLength={200}
          />
        </label>
        <RadioChoice
          legend="Handoffs to another agent are written by (unless chosen on the handoff)"
          name="project-handoff-writer"
          value={handoffWriter}
          onChange={setHandoffWriter}
          options={[
            { value: "skein", label: "Skein, from the thread's runs" },
            {
              value: "provider",
              label:
                "The source agent, on a fork of its own thread (Skein's stands in if it cannot)",
            },
          ]}
        />
        <div className="row">
          <button type="submit" disabled={action.pending || !project}>
            {action.pending ? "Saving…" : "Save settings"}
          </button>
          {saved && !action.pending && <span className="muted">Saved.</span>}
        </div>
        <ActionError error={action.failure} prefix="Settings not saved." />
      </form>
    </details>
  );
}
