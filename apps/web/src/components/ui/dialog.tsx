"use client";
import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

/**
 * The one modal of the design system (Radix: focus trap, Esc, scroll lock, labelled by its
 * title). `hideTitle` keeps the title for screen readers only, e.g. for the command palette.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  hideTitle = false,
  children,
  className = "",
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: string;
  hideTitle?: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <RadixDialog.Content
          className={`fixed left-1/2 top-[12vh] z-50 w-[min(640px,calc(100vw-24px))] -translate-x-1/2 rounded-xl border border-line bg-panel text-ink shadow-2xl ${className}`}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <RadixDialog.Title
            className={hideTitle ? "sr-only" : "px-4 pt-4 text-base font-semibold"}
          >
            {title}
          </RadixDialog.Title>
          {description && (
            <RadixDialog.Description className="sr-only">{description}</RadixDialog.Description>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
