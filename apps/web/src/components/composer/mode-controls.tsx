"use client";
import { effortsOf, useProviderModels } from "../../lib/use-provider-models.ts";
import type { ProviderKind } from "../../lib/types.ts";

/** B5: with plan mode on, the provider proposes a plan instead of acting on the message. */
export function PlanModeToggle({
  value,
  onChange,
}: {
  value: boolean;
  onChange(value: boolean): void;
}) {
  return (
    <label className="plan-toggle" title="The agent proposes a plan instead of making changes">
      <input
        type="checkbox"
        aria-label="Plan mode"
        checked={value}
        onChange={(event) => onChange(event.target.checked)}
      />{" "}
      Plan
    </label>
  );
}

/**
 * Reasoning effort for the message, from the levels the provider lists for the chosen model
 * (its default model when none is named); empty means the provider's default effort.
 */
export function EffortSelect({
  provider,
  model,
  value,
  onChange,
  label = "Effort",
}: {
  provider: ProviderKind;
  model: string;
  value: string;
  onChange(value: string): void;
  /** Its accessible name, where several stand side by side (a fan-out's rows). */
  label?: string;
}) {
  const efforts = effortsOf(useProviderModels(provider), model.trim());
  // A level picked for another model stays visible (and is refused in words if it does not fit).
  const options = value !== "" && !efforts.includes(value) ? [...efforts, value] : efforts;
  return (
    <select aria-label={label} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">default effort</option>
      {options.map((effort) => (
        <option key={effort} value={effort}>
          {effort} effort
        </option>
      ))}
    </select>
  );
}
