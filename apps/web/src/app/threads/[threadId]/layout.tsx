import type { ReactNode } from "react";
import { ThreadFrame } from "../../../components/thread/thread-frame.tsx";

export default async function ThreadLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ threadId: string }>;
}) {
  const { threadId } = await params;
  return <ThreadFrame threadId={decodeURIComponent(threadId)}>{children}</ThreadFrame>;
}
