"use client";
import {
  createContext,
  type ReactNode,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
} from "react";

const KEY = "skein.debug";

type DebugMode = { debug: boolean; setDebug(on: boolean): void };

const DebugContext = createContext<DebugMode>({ debug: false, setDebug: () => {} });

/**
 * B16: plumbing (raw provider frames, ids, event names, empty checkpoint rows) is for a bug
 * report, not for reading a thread: off by default, on for this browser once asked for.
 */
export function DebugProvider({
  children,
  initial = false,
}: {
  children?: ReactNode;
  /** Before the stored choice is read (a server render has none). */
  initial?: boolean;
}) {
  const [debug, setState] = useState(initial);
  // The server cannot know the stored choice: start off, then read it once mounted.
  useEffect(() => {
    setState(window.localStorage.getItem(KEY) === "1");
  }, []);
  const setDebug = useCallback((on: boolean) => {
    setState(on);
    if (on) window.localStorage.setItem(KEY, "1");
    else window.localStorage.removeItem(KEY);
  }, []);
  const value = useMemo(() => ({ debug, setDebug }), [debug, setDebug]);
  return <DebugContext value={value}>{children}</DebugContext>;
}

export function useDebug(): DebugMode {
  return use(DebugContext);
}
