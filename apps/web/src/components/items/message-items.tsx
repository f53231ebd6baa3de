import { Paperclip } from "lucide-react";
import type { TurnItemOf } from "../../lib/types.ts";
import { Markdown } from "../common/markdown.tsx";

export function UserMessageView({ item }: { item: TurnItemOf<"user_message"> }) {
  return (
    <div className="user-message">
      <div className="item-label">You</div>
      <div className="user-text">{item.text}</div>
      {item.attachments.length > 0 && (
        <ul className="attachments">
          {item.attachments.map((a) => (
            // An icon, not the 📎 emoji: a browser without an emoji font drew a missing-glyph box.
            <li key={a.ref}>
              <Paperclip size={12} aria-hidden /> {a.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function AssistantMessageView({ item }: { item: TurnItemOf<"assistant_message"> }) {
  const streaming = item.status === "running" || item.status === "pending";
  return (
    <div className="assistant-message" data-streaming={streaming ? "true" : "false"}>
      <Markdown text={item.text} growing={streaming} />
      {streaming && <span className="caret" role="img" aria-label="still writing" />}
    </div>
  );
}

/** Reasoning stays folded: it is evidence, not the answer. */
export function ReasoningView({ item }: { item: TurnItemOf<"reasoning"> }) {
  return (
    <details className="reasoning">
      <summary>Reasoning{item.status === "running" ? " (thinking…)" : ""}</summary>
      <div className="reasoning-text">
        <Markdown text={item.text} growing={item.status === "running"} />
      </div>
    </details>
  );
}
