"use client";
import { type KeyboardEvent, memo, useEffect, useRef, useState } from "react";
import { useApi, useApiUrl } from "../../lib/api-context.tsx";
import {
  type ComposerChoice,
  currentChoice,
  loadChoice,
  sameChoiceInputs,
  saveChoice,
} from "../../lib/composer-choice.ts";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { ProviderKind, ThreadDetail } from "../../lib/types.ts";
import { filesOf, uploadAttachment } from "../../lib/upload-attachment.ts";
import { useAction } from "../../lib/use-action.ts";
import { useCommand } from "../../lib/commands.tsx";
import { ModelInput, ProviderSelect } from "../common/provider-select.tsx";
import { readReviewByDefault, writeReviewByDefault } from "../../lib/handoff-review-default.ts";
import {
  BringBackConflict,
  conflictFiles,
  handToAgentText,
} from "../parallel/bring-back-conflict.tsx";
import { BringBackOptions, type BringBackWhat } from "./bring-back-options.tsx";
import { bringBackRequest } from "../../lib/bring-back-choice.ts";
import { BringBackSelect } from "./bring-back-select.tsx";
import { ProviderReadinessNotice } from "./provider-readiness-notice.tsx";
import { UsageLimitSwitch } from "./usage-limit-switch.tsx";
import { type HandoffDraftView, HandoffReviewStep } from "./handoff-review-step.tsx";
import { EffortSelect, PlanModeToggle } from "./mode-controls.tsx";
import { ActionError } from "../common/action-error.tsx";
import {
  AttachButton,
  AttachmentChips,
  type ComposerAttachment,
  previewOf,
} from "./attachments.tsx";
import { ContextMeter } from "./context-meter.tsx";
import { useMentions } from "./use-mentions.tsx";
import { useSlashCommands } from "./use-slash-commands.tsx";

type ComposerProps = { detail: ThreadDetail; onSent(): void };

/**
 * Message box for one thread. Provider and model start as the thread's current ones (its latest
 * run, or for a fresh fork its source's), and an unsent pick survives reloads; the switch notice
 * shows only when this message really changes provider. While a run is active the primary action
 * steers it (R1); Esc interrupts. Enter sends, Shift+Enter is a newline. Memoized: it renders
 * again when the thread, its runs or `onSent` change, not for every streamed delta.
 */
export const Composer = memo(
  ComposerView,
  (a: ComposerProps, b: ComposerProps) =>
    a.onSent === b.onSent && sameChoiceInputs(a.detail, b.detail),
);

function ComposerView({ detail, onSent }: ComposerProps) {
  const client = useApi();
  const { shells, refreshThread } = useShells();
  const { thread } = detail;
  const current = currentChoice(detail);
  const [text, setText] = useState("");
  // Read after mount: the server render has no storage, and the two must agree on first paint.
  const [picked, setPicked] = useState<ComposerChoice | null>(null);
  useEffect(() => setPicked(loadChoice(thread.id)), [thread.id]);
  const provider = picked?.provider ?? current.provider;
  const model = picked?.model ?? current.model;
  const pick = (next: ComposerChoice | null) => {
    // Picking what the thread is on anyway is no pick: follow the thread from then on.
    const same = next && next.provider === current.provider && next.model === current.model;
    setPicked(same ? null : next);
    saveChoice(thread.id, same ? null : next);
  };
  const [bringBackFrom, setBringBackFrom] = useState("");
  const [bringBackWhat, setBringBackWhat] = useState<BringBackWhat>("both");
  // A refused bring-back's clashing files (B9): shown, nothing applied, until the next send.
  const [conflict, setConflict] = useState<{ forkId: string; files: string[] } | null>(null);
  // Plan mode starts as the thread's setting; it and the effort apply per message (B5, issue 16).
  const [planMode, setPlanMode] = useState(thread.interactionMode === "plan");
  useEffect(() => setPlanMode(thread.interactionMode === "plan"), [thread.interactionMode]);
  // Implementing a plan (from its card, any client) ends the planning: the next message acts.
  const implementing = detail.runs.at(-1)?.sourcePlanRef ? detail.runs.at(-1)?.id : undefined;
  useEffect(() => {
    if (implementing) setPlanMode(false);
  }, [implementing]);
  // An effort level belongs to the provider it was picked for; on another one it is "default".
  const [effortPick, setEffortPick] = useState({ provider: "", value: "" });
  const action = useAction();
  // E16: pasted or dropped files, uploaded at once; the message then names them by ref.
  const apiUrl = useApiUrl();
  const [attachments, setAttachments] = useState<ComposerAttachment[]>([]);
  const upload = useAction();
  const attach = (files: File[]) => {
    if (files.length === 0) return;
    void upload.run(async () => {
      const uploaded = await Promise.all(
        files.map(async (file) => ({
          ...(await uploadAttachment(apiUrl, file)),
          previewUrl: previewOf(file),
        })),
      );
      setAttachments((list) => [...list, ...uploaded]);
    });
  };
  const clearAttachments = () =>
    setAttachments((list) => {
      for (const file of list) if (file.previewUrl) URL.revokeObjectURL(file.previewUrl);
      return [];
    });
  const active = thread.activeRunId !== null || thread.status === "running";
  const bringBackTitle = bringBackFrom ? (shells.get(bringBackFrom)?.title ?? bringBackFrom) : "";
  // Only a fork with its own worktree has code of its own to bring (else it shares this folder).
  const forkHasCode =
    bringBackFrom !== "" && (shells.get(bringBackFrom)?.worktreePath ?? null) !== null;
  const request = bringBackFrom ? bringBackRequest(bringBackWhat, forkHasCode) : null;
  // Code only (issue 26) is its own action: the next message then carries no bring-back.
  const codeOnly = request?.via === "bringBackCode";
  const bringCode = request?.via === "message" && request.code === "squash";

  const effort = effortPick.provider === provider ? effortPick.value : "";
  const setEffort = (value: string) => setEffortPick({ provider, value });

  const chooseProvider = (next: ProviderKind | "") => {
    if (next === "") return;
    // A model name belongs to its provider; switching resets to that provider's default.
    pick({ provider: next, model: next === current.provider ? current.model : "" });
  };
  const switching = provider !== current.provider;

  // B10 "Review handoff before sending": on by default for every transfer kind, unless the
  // person turned the default off (this browser's preference); each message can still choose.
  const [reviewChoice, setReviewChoice] = useState<boolean | null>(null);
  const [reviewDefault, setReviewDefault] = useState(true);
  useEffect(() => setReviewDefault(readReviewByDefault()), []);
  const transferring = switching || (bringBackFrom !== "" && !codeOnly);
  const reviewFirst = transferring && (reviewChoice ?? reviewDefault);
  const [draft, setDraft] = useState<HandoffDraftView | null>(null);

  const canSend = text.trim() !== "" && !action.pending && !upload.pending;
  const after = () => {
    pick(null);
    setText("");
    clearAttachments();
    setBringBackFrom("");
    setBringBackWhat("both");
    setConflict(null);
    setDraft(null);
    setReviewChoice(null);
    refreshThread(thread.id);
    onSent();
  };
  const deliver = async (handoffText?: string, override?: { text: string; code: "none" }) => {
    setConflict(null);
    try {
      await sendNow(handoffText, override);
    } catch (error) {
      const files = bringCode ? conflictFiles(error) : null;
      if (!files) throw error;
      // B9, as on the Parallel page: the clash is shown and nothing was applied.
      setConflict({ forkId: bringBackFrom, files });
      setDraft(null);
      return;
    }
    after();
  };
  const sendNow = async (handoffText?: string, override?: { text: string; code: "none" }) => {
    await client.thread.sendMessage.mutate({
      threadId: thread.id,
      text: override?.text ?? text,
      provider,
      model: model.trim() || null,
      ...(bringBackFrom && (override || !codeOnly)
        ? { bringBackFrom, code: override?.code ?? (bringCode ? "squash" : "none") }
        : {}),
      interactionMode: planMode ? "plan" : "default",
      ...(effort ? { effort } : {}),
      ...(handoffText !== undefined ? { handoffText } : {}),
      ...(attachments.length > 0
        ? { attachments: attachments.map(({ ref, name }) => ({ ref, name })) }
        : {}),
    });
  };
  // Issue 26, code only: the fork's files land here with no message or run; a clash is shown
  // (nothing applied) with the same ways out as a refused message.
  const bringCodeOnly = () =>
    void action.run(async () => {
      setConflict(null);
      try {
        await client.thread.bringBackCode.mutate({
          threadId: thread.id,
          forkThreadId: bringBackFrom,
        });
      } catch (error) {
        const files = conflictFiles(error);
        if (!files) throw error;
        setConflict({ forkId: bringBackFrom, files });
        return;
      }
      setBringBackFrom("");
      setBringBackWhat("both");
      refreshThread(thread.id);
    });
  // The clash goes to this thread's agent: the fork's conversation comes back, its files stay on
  // its branch, and the agent is asked to merge that branch here (the Parallel page's message).
  const handToAgent = (files: string[]) =>
    void action.run(async () => {
      const [fork] = (await client.thread.compare.query({ threadIds: [bringBackFrom] as never }))
        .forks;
      const message = handToAgentText(bringBackTitle, fork?.branch ?? "", files);
      await deliver(undefined, { text: message, code: "none" });
    });
  const loadDraft = async (): Promise<HandoffDraftView | null> => {
    const answer = await client.handoff.draft.query({
      threadId: thread.id,
      provider,
      ...(bringBackFrom && !codeOnly ? { bringBackFrom } : {}),
    });
    if (!answer.needed) return null;
    return {
      generated: answer.text,
      text: answer.text,
      transferType: answer.transferType,
      strategy: answer.strategy,
      payload: answer.payload,
    };
  };
  // A draft belongs to the provider and fork it was built for.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever either changes
  useEffect(() => setDraft(null), [provider, bringBackFrom, bringBackWhat]);
  const send = () => {
    // While a handoff is under review, only its own button sends.
    if (!canSend || draft) return;
    void action.run(async () => {
      if (!reviewFirst) return deliver();
      const next = await loadDraft();
      // Nothing to carry over (e.g. the provider's thread is up to date): nothing to review.
      if (next === null) return deliver();
      setDraft(next);
    });
  };
  const sendReviewed = () =>
    void action.run(async () => {
      if (!draft) return;
      // Unedited, the run builds the same text itself; edited, it is sent as manual context. A
      // provider-written draft is sent as reviewed: asked again, the provider would write anew.
      const reviewed =
        draft.text !== draft.generated || draft.payload?.authorship?.by === "provider";
      await deliver(reviewed ? draft.text : undefined);
    });
  const regenerate = () =>
    void action.run(async () => {
      const next = await loadDraft();
      if (next === null) setDraft(null);
      else setDraft(next);
    });
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

  // Issue 29: `/` commands and `@` file mentions, each a popup the text box keeps focus over.
  const box = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const slash = useSlashCommands({
    threadId: thread.id,
    text,
    setText,
    togglePlanMode: () => setPlanMode((on) => !on),
    modelMenuId: `model-${thread.id}`,
    providerMenuId: `provider-${thread.id}`,
  });
  const mentions = useMentions({ threadId: thread.id, text, caret, box, setText });

  // The palette lists what Enter / Esc do here; the keys themselves stay on the text box.
  useCommand(
    {
      id: "send",
      label: "Send message",
      group: "Thread",
      shortcut: "send",
      scope: "composer",
      run: send,
    },
    !active && canSend,
  );
  useCommand(
    {
      id: "steer",
      label: "Steer the running reply",
      group: "Thread",
      shortcut: "steer",
      scope: "composer",
      run: steer,
    },
    active && text.trim() !== "",
  );
  useCommand(
    {
      id: "interrupt",
      label: "Interrupt the running reply",
      group: "Thread",
      shortcut: "interrupt",
      scope: "composer",
      run: interrupt,
    },
    active,
  );

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An open popup takes the keys it uses (Enter picks there rather than sending).
    if (slash.onKeyDown(event) || mentions.onKeyDown(event)) return;
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
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes("Files")) event.preventDefault();
      }}
      onDrop={(event) => {
        const files = filesOf(event.dataTransfer);
        if (files.length === 0) return;
        event.preventDefault();
        attach(files);
      }}
    >
      <ProviderReadinessNotice provider={provider} />
      <UsageLimitSwitch thread={thread} provider={provider} onSwitch={chooseProvider} />
      {slash.menu}
      {mentions.menu}
      <textarea
        ref={box}
        aria-label="Message"
        placeholder={
          active ? "Steer the running reply… (Esc interrupts)" : "Message… (Shift+Enter: newline)"
        }
        value={text}
        rows={3}
        onChange={(event) => {
          setText(event.target.value);
          setCaret(event.target.selectionStart);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onPaste={(event) => {
          const files = filesOf(event.clipboardData);
          if (files.length === 0) return;
          event.preventDefault();
          attach(files);
        }}
      />
      <AttachmentChips
        attachments={attachments}
        uploading={upload.pending}
        onRemove={(file) => setAttachments((list) => list.filter((f) => f !== file))}
      />
      <div className="composer-bar">
        <AttachButton disabled={upload.pending} onFiles={attach} />
        <ProviderSelect id={`provider-${thread.id}`} value={provider} onChange={chooseProvider} />
        <ModelInput
          id={`model-${thread.id}`}
          provider={provider}
          value={model}
          onChange={(next) => pick({ provider, model: next })}
        />
        <EffortSelect provider={provider} model={model} value={effort} onChange={setEffort} />
        <PlanModeToggle value={planMode} onChange={setPlanMode} />
        <BringBackSelect threadId={thread.id} value={bringBackFrom} onChange={setBringBackFrom} />
        <span className="spacer" />
        <ContextMeter runs={detail.runs} />
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
      {bringBackFrom &&
        (forkHasCode ? (
          <BringBackOptions
            title={bringBackTitle}
            value={bringBackWhat}
            pending={action.pending}
            onChange={setBringBackWhat}
            onBringCode={bringCodeOnly}
            onCancel={() => setBringBackFrom("")}
          />
        ) : (
          <p className="hint">
            Bringing back the work of <strong>{bringBackTitle}</strong> with this message (it worked
            in this folder: its files are here already){" "}
            <button type="button" className="small" onClick={() => setBringBackFrom("")}>
              Cancel bring back
            </button>
          </p>
        ))}
      {conflict && conflict.forkId === bringBackFrom && (
        <BringBackConflict title={bringBackTitle} files={conflict.files}>
          <button
            type="button"
            disabled={action.pending}
            onClick={() => {
              setConflict(null);
              setBringBackWhat("conversation");
            }}
          >
            Bring back its conversation only
          </button>{" "}
          <button
            type="button"
            disabled={action.pending}
            onClick={() => handToAgent(conflict.files)}
          >
            Hand to the agent to merge
          </button>
        </BringBackConflict>
      )}
      {transferring && (
        <p className="hint review-handoff-toggle">
          <label>
            <input
              type="checkbox"
              checked={reviewFirst}
              onChange={(event) => setReviewChoice(event.target.checked)}
            />{" "}
            Review handoff before sending
          </label>{" "}
          <label className="muted">
            <input
              type="checkbox"
              checked={reviewDefault}
              onChange={(event) => {
                setReviewDefault(event.target.checked);
                writeReviewByDefault(event.target.checked);
              }}
            />{" "}
            always, by default
          </label>
        </p>
      )}
      {draft && (
        <HandoffReviewStep
          draft={draft}
          pending={action.pending}
          onChange={(next) => setDraft({ ...draft, text: next })}
          onRegenerate={regenerate}
          onSend={sendReviewed}
          onBack={() => setDraft(null)}
        />
      )}
      {switching && (
        <p className="hint switch-notice">
          This message switches from {PROVIDER_LABEL[current.provider]} to{" "}
          {PROVIDER_LABEL[provider]} (a handoff carries the context).{" "}
          <button type="button" className="small" onClick={() => pick(null)}>
            Stay on {PROVIDER_LABEL[current.provider]}
          </button>
        </p>
      )}
      <ActionError error={action.failure} />
      <ActionError error={slash.failure} />
      <ActionError error={upload.failure} prefix="Attachment refused." />
    </form>
  );
}
