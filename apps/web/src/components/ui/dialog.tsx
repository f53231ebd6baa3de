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
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`dialog ${className}`}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <RadixDialog.Title className={hideTitle ? "sr-only" : "dialog-title"}>
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
