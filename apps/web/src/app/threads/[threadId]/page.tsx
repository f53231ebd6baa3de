import { ConversationView } from "../../../components/thread/conversation-view.tsx";

export default function ThreadPage() {
  return <ConversationView />;
}
