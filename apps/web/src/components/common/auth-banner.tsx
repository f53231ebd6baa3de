"use client";
import { type FormEvent, useState } from "react";
import { readApiToken, saveApiToken } from "../../lib/api-token.ts";
import { useShells } from "../../lib/shells-store.tsx";

/** Shown when the API refuses this tab for lack of a token (SKEIN_API_TOKEN is set). */
export function AuthBanner() {
  const { watch } = useShells();
  const [token, setToken] = useState("");
  if (watch.status !== "failed" || !watch.error?.startsWith("UNAUTHORIZED")) return null;
  const hadToken = readApiToken() !== undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    saveApiToken(token.trim());
    window.location.reload();
  };
  return (
    <form className="panel auth-banner" onSubmit={submit} aria-labelledby="auth-heading">
      <h2 id="auth-heading">The Skein API needs a token</h2>
      <p className="muted">
        {hadToken
          ? "The saved token was refused."
          : "This server was started with SKEIN_API_TOKEN."}{" "}
        Enter it to continue; it is kept only in this browser tab.
      </p>
      <div className="row">
        <input
          type="password"
          aria-label="API token"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          autoComplete="off"
        />
        <button type="submit" className="primary" disabled={token.trim() === ""}>
          Use token
        </button>
      </div>
    </form>
  );
}
