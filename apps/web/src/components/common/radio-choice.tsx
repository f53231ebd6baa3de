import type { ReactNode } from "react";

export type RadioOption<T extends string> = { value: T; label: ReactNode };

/** One choice among a few, each a labelled radio button (a form's fieldset). */
export function RadioChoice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: ReactNode;
  /** The radio group's name, unique on the page. */
  name: string;
  value: T;
  options: readonly RadioOption<T>[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="inline">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
