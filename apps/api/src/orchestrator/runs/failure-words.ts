/** Provider names as a person knows them. */
export function providerName(provider: string): string {
  return provider === "codex" ? "Codex" : provider === "claude" ? "Claude Code" : provider;
}

/** What to do about a turn that failed, judged from the provider's own error text. */
function adviceFor(name: string, error: string): string {
  if (/could not reach the model/i.test(error)) {
    return `Check that the server can reach ${name}'s model service (network, proxy, or the base URL in ${name}'s configuration), then send the message again.`;
  }
  if (/\b(401|403)\b|unauthori[sz]ed|forbidden|api[ _-]?key|credential|log ?in/i.test(error)) {
    return `Check ${name}'s credentials on the server (provider status shows its state), then send the message again.`;
  }
  if (/\b5\d\d\b|overloaded|rate.?limit|\b429\b|timed? ?out|ECONNRE|network|stream/i.test(error)) {
    return "The model service did not answer properly; send the message again in a moment.";
  }
  if (/crash|killed|exited|SIG[A-Z]+|runtime ended/i.test(error)) {
    return `The ${name} runtime stopped during the turn; send the message again (Skein starts a new runtime and resumes the conversation).`;
  }
  return "Send the message again; if it keeps failing, provider status and the server log say more.";
}

/**
 * B1 / item 10: a failed turn's error as a person reads it: what happened (the provider's own
 * text stays in it, for diagnosis) and what to do.
 */
export function turnFailureInWords(provider: string, error: string): string {
  const name = providerName(provider);
  const what = error.trim().replace(/[.\s]+$/, "") || "no reason given";
  return `The ${name} turn failed: ${what}. ${adviceFor(name, what)}`;
}
