"use client";
import { Paperclip, X } from "lucide-react";
import { useEffect, useRef } from "react";
import type { UploadedAttachment } from "../../lib/upload-attachment.ts";

/** An uploaded file and, for an image, a local preview URL (the bytes never round-trip). */
export type ComposerAttachment = UploadedAttachment & { previewUrl: string | null };

/** The local preview of a picked or pasted file: images only, revoked when the chip goes. */
export function previewOf(file: File): string | null {
  return file.type.startsWith("image/") ? URL.createObjectURL(file) : null;
}

/**
 * Issue 29: a button beside paste and drop. The file input stays hidden (its native look cannot be
 * styled); the button opens it, and the same files go through the same upload.
 */
export function AttachButton({
  disabled,
  onFiles,
}: {
  disabled: boolean;
  onFiles(files: File[]): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label="Attach files"
        title="Attach files (or paste or drop them)"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <Paperclip size={16} aria-hidden />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label="Files to attach"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // Cleared so picking the same file again fires a change.
          event.target.value = "";
          onFiles(files);
        }}
      />
    </>
  );
}

/** The message's attachments as chips: a thumbnail for an image, an icon button to remove. */
export function AttachmentChips({
  attachments,
  uploading,
  onRemove,
}: {
  attachments: ComposerAttachment[];
  uploading: boolean;
  onRemove(file: ComposerAttachment): void;
}) {
  // Previews are revoked when their chips leave (removed, sent) or the composer closes.
  const live = useRef(attachments);
  live.current = attachments;
  useEffect(
    () => () => {
      for (const file of live.current) if (file.previewUrl) URL.revokeObjectURL(file.previewUrl);
    },
    [],
  );
  if (attachments.length === 0 && !uploading) return null;
  return (
    <ul className="composer-attachments" aria-label="Attachments">
      {attachments.map((file) => (
        <li
          key={file.ref}
          className="badge attachment-chip"
          title={`${file.mimeType} · ${file.sizeBytes} bytes`}
        >
          {file.previewUrl && (
            // biome-ignore lint/performance/noImgElement: a local object URL, nothing for next/image to optimize
            <img
              className="attachment-thumb"
              src={file.previewUrl}
              alt={`Preview of ${file.name}`}
            />
          )}
          <span>{file.name}</span>
          <button
            type="button"
            className="icon-button small"
            aria-label={`Remove ${file.name}`}
            onClick={() => {
              if (file.previewUrl) URL.revokeObjectURL(file.previewUrl);
              onRemove(file);
            }}
          >
            <X size={12} aria-hidden />
          </button>
        </li>
      ))}
      {uploading && <li className="muted">Uploading…</li>}
    </ul>
  );
}
