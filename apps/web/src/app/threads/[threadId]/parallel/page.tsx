import { ParallelView } from "../../../../components/parallel/parallel-view.tsx";

export default function ParallelPage() {
  return <ParallelView />;
}
