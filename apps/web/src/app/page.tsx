import { NewProjectForm } from "../components/home/new-project-form.tsx";
import { ProjectList } from "../components/home/project-list.tsx";
import { ProviderStatusPanel } from "../components/home/provider-status.tsx";

export default function HomePage() {
  return (
    <div className="page">
      <h1>Projects</h1>
      <ProjectList />
      <NewProjectForm />
      <ProviderStatusPanel />
    </div>
  );
}
