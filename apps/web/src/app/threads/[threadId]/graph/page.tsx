import { GraphView } from "../../../../components/graph/graph-view.tsx";

export default function GraphPage() {
  return <GraphView />;
}
