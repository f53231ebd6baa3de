import { CheckpointsView } from "../../../../components/checkpoints/checkpoints-view.tsx";

export default function CheckpointsPage() {
  return <CheckpointsView />;
}
