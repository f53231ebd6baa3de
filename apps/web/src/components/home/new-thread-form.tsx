"use client";
import { RadioChoice } from "../common/radio-choice.tsx";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useShells } from "../../lib/shells-store.tsx";
import { DEFAULT_PROVIDER, type ProviderKind, type RuntimeMode } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ModelInput, ProviderSelect } from "../common/provider-select.tsx";
import { ActionError } from "../common/action-error.tsx";

/** A new thread: title, default provider/model for its runs, and whether commands need approval. */
export function NewThreadForm({ projectId }: { projectId: string }) {
  const client = useApi();
  const router = useRouter();
  const { projects, refreshThread } = useShells();
  const project = projects.find((p) => p.id === projectId);
  const [title, setTitle] = useState("");
  const [provider, setProvider] = useState<ProviderKind | "">(DEFAULT_PROVIDER);
  const [model, setModel] = useState("");
  const [runtimeMode, setRuntimeMode] = useState<RuntimeMode>("approval-required");
  // Issue 26: the project's choice unless the person picks the other one for this thread.
  const projectWorkspace = project?.settings?.threadWorkspace ?? "worktree";
  const [workspace, setWorkspace] = useState<"worktree" | "local" | null>(null);
  const chosenWorkspace = workspace ?? projectWorkspace;
  const action = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      const { threadId } = await client.thread.create.mutate({
        projectId,
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(provider ? { provider } : {}),
        model: model.trim() || null,
        runtimeMode,
        // Only a choice that differs from the project's is sent: by default a folder that is not
        // a git repository works in place instead of being refused.
        ...(chosenWorkspace !== projectWorkspace ? { workspace: chosenWorkspace } : {}),
      });
      refreshThread(threadId);
      router.push(`/threads/${threadId}`);
    });
  };

  return (
    <form className="panel form" onSubmit={submit} aria-labelledby="new-thread-heading">
      <h1 id="new-thread-heading">New thread{project ? ` in ${project.title}` : ""}</h1>
      <label>
        Title
        <input
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          placeholder="Untitled thread"
          maxLength={200}
        />
      </label>
      <div className="row">
        <label htmlFor="new-thread-provider">Default provider</label>
        <ProviderSelect id="new-thread-provider" value={provider} onChange={setProvider} />
        <label htmlFor="new-thread-model">Model</label>
        <ModelInput id="new-thread-model" provider={provider} value={model} onChange={setModel} />
      </div>
      <RadioChoice
        legend="Runtime mode"
        name="runtime-mode"
        value={runtimeMode}
        onChange={setRuntimeMode}
        options={[
          { value: "approval-required", label: "Ask before running commands or editing files" },
          { value: "full-access", label: "Full access" },
        ]}
      />
      <RadioChoice
        legend="Workspace"
        name="thread-workspace"
        value={chosenWorkspace}
        onChange={setWorkspace}
        options={[
          {
            value: "worktree",
            label:
              "Its own worktree: a branch and folder of its own, so other threads never edit its files (git projects)",
          },
          {
            value: "local",
            label: "The project's folder itself, shared with the other threads working there",
          },
        ]}
      />
      <div className="row">
        <button type="submit" className="primary" disabled={action.pending}>
          {action.pending ? "Creating…" : "Create thread"}
        </button>
      </div>
      <ActionError error={action.failure} />
    </form>
  );
}
