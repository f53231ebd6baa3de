"use client";
import Link from "next/link";
import { useMemo } from "react";
import { useShells } from "../../lib/shells-store.tsx";

/** Every project with its live thread count and a way to start a thread in it. */
export function ProjectList() {
  const { projects, shells } = useShells();
  const counts = useMemo(() => {
    const byProject = new Map<string, number>();
    for (const shell of shells.values()) {
      byProject.set(shell.projectId, (byProject.get(shell.projectId) ?? 0) + 1);
    }
    return byProject;
  }, [shells]);

  return (
    <section className="panel" aria-labelledby="projects-heading">
      <h2 id="projects-heading">Projects</h2>
      {projects.length === 0 ? (
        <p className="muted">No projects yet.</p>
      ) : (
        <ul className="plain-list">
          {projects.map((project) => (
            <li key={project.id} className="project-item">
              <div>
                <strong>{project.title}</strong>{" "}
                <span className="muted">
                  {counts.get(project.id) ?? 0} threads · {project.workspaceRoot}
                </span>
              </div>
              <Link className="button" href={`/projects/${project.id}/new`}>
                New thread in {project.title}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
