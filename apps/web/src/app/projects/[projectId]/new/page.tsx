import { AdoptSession } from "../../../../components/home/adopt-session.tsx";
import { NewThreadForm } from "../../../../components/home/new-thread-form.tsx";
import { ProjectSettingsForm } from "../../../../components/home/project-settings-form.tsx";

export default async function NewThreadPage({
  params,
}: {
  params: Promise<{ projectId: string }>;
}) {
  const { projectId } = await params;
  return (
    <div className="page">
      <NewThreadForm projectId={decodeURIComponent(projectId)} />
      <ProjectSettingsForm projectId={decodeURIComponent(projectId)} />
      <AdoptSession projectId={decodeURIComponent(projectId)} />
    </div>
  );
}
