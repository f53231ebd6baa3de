"use client";
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { createQueryClient } from "./query-client.ts";

/** One cache per page load, shared by every screen, so the same read is made once. */
export function QueryProvider({ children }: { children?: ReactNode }) {
  const [client] = useState(createQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
