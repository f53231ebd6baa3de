import { UsagePanel } from "../../components/usage/usage-panel.tsx";

export default function UsagePage() {
  return <UsagePanel />;
}
