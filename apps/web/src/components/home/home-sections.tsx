"use client";
import { useShells } from "../../lib/shells-store.tsx";
import { useProviderStatus } from "../../lib/use-provider-status.ts";
import { NewProjectForm } from "./new-project-form.tsx";
import { ProjectList } from "./project-list.tsx";
import { ProviderStatusPanel } from "./provider-status.tsx";

/**
 * The home page. On a first run (no project yet, or a provider not ready) the providers' state
 * and what to do come first; once everything is ready they move below the projects.
 */
export function HomeSections() {
  const { projects } = useShells();
  const readiness = useProviderStatus();
  const notReady = readiness.statuses?.some((s) => !s.ready) ?? false;
  const firstRun = projects.length === 0 || notReady;
  const providers = <ProviderStatusPanel firstRun={firstRun} readiness={readiness} />;
  return (
    <>
      {firstRun && providers}
      <ProjectList />
      <NewProjectForm />
      {!firstRun && providers}
    </>
  );
}
