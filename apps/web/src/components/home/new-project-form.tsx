"use client";
import { type FormEvent, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { projectFormProblem } from "../../lib/project-form-rules.ts";
import { useShells } from "../../lib/shells-store.tsx";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";

/**
 * Creates a project over a workspace directory the API can reach (an absolute path). The API's
 * own rule runs here first (lib/project-form-rules.ts), so a mistyped path is explained before
 * any call; the API's refusal of the folder itself is shown the same way.
 */
export function NewProjectForm() {
  const client = useApi();
  const { refreshProjects } = useShells();
  const [name, setName] = useState("");
  const [root, setRoot] = useState("");
  const action = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      const workspaceRoot = root.trim();
      const problem = projectFormProblem(name, workspaceRoot);
      if (problem !== null) throw new Error(problem);
      await client.project.create.mutate({ name: name.trim(), workspaceRoot });
      setName("");
      setRoot("");
      refreshProjects();
    });
  };

  return (
    <form className="panel form" onSubmit={submit} aria-labelledby="new-project-heading">
      <h2 id="new-project-heading">New project</h2>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label>
        Workspace root (absolute path)
        <input
          value={root}
          onChange={(e) => setRoot(e.target.value)}
          required
          placeholder="/home/me/code/my-repo"
        />
      </label>
      <div className="row">
        <button type="submit" className="primary" disabled={action.pending}>
          {action.pending ? "Creating…" : "Create project"}
        </button>
      </div>
      <ActionError error={action.failure} />
    </form>
  );
}
