"use client";
import { createSkeinClient } from "@skein/client";
import type { AppRouter, SkeinClient } from "@skein/contract";
import { createContext, type ReactNode, useContext, useMemo } from "react";
import { readApiToken } from "./api-token.ts";

function tokenOption(token: string | undefined): { token?: string } {
  return token === undefined ? {} : { token };
}

const ApiContext = createContext<{ client: SkeinClient; apiUrl: string } | null>(null);

/**
 * One typed client per page load: queries batched over HTTP, watches over SSE. Watches use the
 * browser's own EventSource (`connectionParams` mode): the fetch-based one sends a
 * `cache-control` request header, which turns every watch into a CORS preflight the API refuses.
 * The native one also reconnects by itself with `Last-Event-ID` after a network drop.
 */
export function ApiProvider({ apiUrl, children }: { apiUrl: string; children?: ReactNode }) {
  const value = useMemo(
    () => ({
      client: createSkeinClient<AppRouter>({
        url: apiUrl,
        subscriptionAuth: "connectionParams",
        ...tokenOption(readApiToken()),
      }),
      apiUrl,
    }),
    [apiUrl],
  );
  return <ApiContext value={value}>{children}</ApiContext>;
}

export function useApi(): SkeinClient {
  const value = useContext(ApiContext);
  if (value === null) throw new Error("useApi outside <ApiProvider>");
  return value.client;
}

export function useApiUrl(): string {
  const value = useContext(ApiContext);
  if (value === null) throw new Error("useApiUrl outside <ApiProvider>");
  return value.apiUrl;
}
