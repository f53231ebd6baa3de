"use client";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import { modelLabel } from "../../lib/model-label.ts";
import { useProviderModels } from "../../lib/use-provider-models.ts";
import { useProviderStatus } from "../../lib/use-provider-status.ts";
import { PROVIDERS, type ProviderKind } from "../../lib/types.ts";

/**
 * The built-in providers, then the ACP agents this server was configured with (B18, known from
 * `provider.status`, by their names), and the current choice if it is neither (an agent since
 * removed from the configuration).
 */
function useProviderChoices(
  current: ProviderKind | "",
): Array<{ id: ProviderKind; label: string }> {
  const { statuses } = useProviderStatus();
  const choices: Array<{ id: ProviderKind; label: string }> = PROVIDERS.map((id) => ({
    id,
    label: PROVIDER_LABEL[id] ?? id,
  }));
  for (const status of statuses ?? []) {
    if (!choices.some((c) => c.id === status.provider)) {
      choices.push({ id: status.provider, label: status.name });
    }
  }
  if (current !== "" && !choices.some((c) => c.id === current)) {
    choices.push({ id: current, label: PROVIDER_LABEL[current] ?? current });
  }
  return choices;
}

type ProviderSelectProps = {
  value: ProviderKind | "";
  onChange(value: ProviderKind | ""): void;
  /** Offer an empty "choose…" entry (a fork's first message must pick explicitly). */
  allowEmpty?: boolean;
  label?: string;
  id?: string;
};

export function ProviderSelect({
  value,
  onChange,
  allowEmpty,
  label = "Provider",
  id,
}: ProviderSelectProps) {
  const choices = useProviderChoices(value);
  return (
    <select
      id={id}
      aria-label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as ProviderKind | "")}
    >
      {allowEmpty && <option value="">Choose provider…</option>}
      {choices.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

/**
 * Model names to offer before the provider's own catalog is read (and if it cannot be); the
 * server refuses a name the provider does not list, empty = provider default.
 */
export const MODEL_SUGGESTIONS: Partial<Record<ProviderKind, readonly string[]>> = {
  codex: ["gpt-5.5", "gpt-5.1-codex", "gpt-5-codex"],
  claude: ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"],
  gemini: ["gemini-2.5-pro", "gemini-2.5-flash"],
};

/**
 * Issue 29: the model as a menu of the provider's own catalog, by display name, the default first
 * and named as the model it is ("Default · GPT-5.5"). A pick the catalog does not list (an older
 * name, a catalog not read yet) stays as its own entry rather than vanishing.
 */
export function ModelInput({
  provider,
  value,
  onChange,
  id,
  label = "Model",
}: {
  provider: ProviderKind | "";
  value: string;
  onChange(value: string): void;
  id: string;
  /** Its accessible name, where several stand side by side (a fan-out's rows). */
  label?: string;
}) {
  const catalog = useProviderModels(provider);
  const choices: Array<{ id: string; label: string }> =
    catalog.length > 0
      ? catalog.map((model) => ({ id: model.id, label: modelLabel(catalog, model.id) }))
      : (provider === "" ? [] : (MODEL_SUGGESTIONS[provider] ?? [])).map((name) => ({
          id: name,
          label: name,
        }));
  const picked = value.trim();
  if (picked !== "" && !choices.some((choice) => choice.id === picked)) {
    choices.push({ id: picked, label: picked });
  }
  return (
    <select
      id={id}
      aria-label={label}
      className="model-menu"
      value={picked}
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="">Default · {modelLabel(catalog, null)}</option>
      {choices.map((choice) => (
        <option key={choice.id} value={choice.id} title={choice.id}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}
