import { ApprovalsPanel } from "../../components/approvals/approvals-panel.tsx";

export default function ApprovalsPage() {
  return <ApprovalsPanel />;
}
