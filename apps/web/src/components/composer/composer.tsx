"use client";
import { type KeyboardEvent, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { ProviderKind, ThreadDetail } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ModelInput, ProviderSelect } from "../common/provider-select.tsx";
import { BringBackSelect } from "./bring-back-select.tsx";
import { ActionError } from "../common/action-error.tsx";

/**
 * Message box for one thread. Provider and model default to the thread's; a fork's first message
 * must pick a provider explicitly (T3/T4: the fork itself chose none). While a run is active the
 * primary action steers it (R1); Esc interrupts. Enter sends, Shift+Enter is a newline.
 */
export function Composer({ detail, onSent }: { detail: ThreadDetail; onSent(): void }) {
  const client = useApi();
  const { shells, refreshThread } = useShells();
  const { thread } = detail;
  const needsProvider = thread.lineage?.relationshipToParent === "fork" && detail.runs.length === 0;
  const [text, setText] = useState("");
  const [provider, setProvider] = useState<ProviderKind | "">(
    needsProvider ? "" : thread.defaultProvider,
  );
  const [model, setModel] = useState(needsProvider ? "" : (thread.modelSelection.model ?? ""));
  const [bringBackFrom, setBringBackFrom] = useState("");
  const action = useAction();
  const active = thread.activeRunId !== null || thread.status === "running";
  const bringBackTitle = bringBackFrom ? (shells.get(bringBackFrom)?.title ?? bringBackFrom) : "";

  const chooseProvider = (next: ProviderKind | "") => {
    setProvider(next);
    // A model name belongs to its provider; switching resets to that provider's default.
    setModel(next === thread.defaultProvider ? (thread.modelSelection.model ?? "") : "");
  };

  const canSend = text.trim() !== "" && provider !== "" && !action.pending;
  const after = () => {
    setText("");
    setBringBackFrom("");
    refreshThread(thread.id);
    onSent();
  };
  const send = () => {
    if (provider === "" || !canSend) return;
    void action.run(async () => {
      await client.thread.sendMessage.mutate({
        threadId: thread.id,
        text,
        provider,
        model: model.trim() || null,
        ...(bringBackFrom ? { bringBackFrom } : {}),
      });
      after();
    });
  };
  const steer = () => {
    if (text.trim() === "") return;
    void action.run(async () => {
      await client.thread.steer.mutate({ threadId: thread.id, text });
      after();
    });
  };
  const interrupt = () =>
    void action.run(async () => {
      await client.thread.interrupt.mutate({ threadId: thread.id });
      refreshThread(thread.id);
    });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape" && active) {
      event.preventDefault();
      interrupt();
    } else if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (active) steer();
      else send();
    }
  };

  return (
    <form
      className="composer"
      aria-label="Composer"
      onSubmit={(event) => {
        event.preventDefault();
        if (active) steer();
        else send();
      }}
    >
      <textarea
        aria-label="Message"
        placeholder={
          active ? "Steer the running reply… (Esc interrupts)" : "Message… (Shift+Enter: newline)"
        }
        value={text}
        rows={3}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-bar">
        <ProviderSelect value={provider} onChange={chooseProvider} allowEmpty={needsProvider} />
        <ModelInput
          id={`model-${thread.id}`}
          provider={provider}
          value={model}
          onChange={setModel}
        />
        <BringBackSelect threadId={thread.id} value={bringBackFrom} onChange={setBringBackFrom} />
        <span className="spacer" />
        {active ? (
          <>
            <button
              type="submit"
              className="primary"
              disabled={text.trim() === "" || action.pending}
            >
              Steer
            </button>
            <button type="button" onClick={send} disabled={!canSend}>
              Queue message
            </button>
            <button type="button" className="danger" onClick={interrupt} disabled={action.pending}>
              Interrupt
            </button>
          </>
        ) : (
          <button type="submit" className="primary" disabled={!canSend}>
            Send
          </button>
        )}
      </div>
      {needsProvider && provider === "" && (
        <p className="hint">This fork has no provider yet: choose one for its first message.</p>
      )}
      {bringBackFrom && (
        <p className="hint">
          Bringing back the work of <strong>{bringBackTitle}</strong> with this message{" "}
          <button type="button" className="small" onClick={() => setBringBackFrom("")}>
            Cancel bring back
          </button>
        </p>
      )}
      {!needsProvider && provider !== "" && provider !== thread.defaultProvider && (
        <p className="hint">
          This message switches the thread to {PROVIDER_LABEL[provider]} (a handoff carries the
          context).
        </p>
      )}
      <ActionError error={action.error} />
    </form>
  );
}
