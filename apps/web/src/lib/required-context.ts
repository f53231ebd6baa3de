"use client";
import { type Context, createContext, useContext } from "react";

/**
 * A context that must have its provider above: reading it anywhere else is a wiring mistake, so
 * it throws at once, naming the provider, instead of handing the view a null to trip over later.
 */
export function requiredContext<T>(provider: string): {
  Context: Context<T | null>;
  useRequired(): T;
} {
  const Context = createContext<T | null>(null);
  return {
    Context,
    useRequired() {
      const value = useContext(Context);
      if (value === null) throw new Error(`used outside ${provider}`);
      return value;
    },
  };
}
