import { HandoffInspector } from "../../../../components/handoffs/handoff-inspector.tsx";

export default function HandoffsPage() {
  return <HandoffInspector />;
}
