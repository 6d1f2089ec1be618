"use client";

// The fleet's search box: what is typed reaches the URL 300 ms after typing stops, or at once
// when another filter changes first (`flush`), so the URL always holds the box's latest text
// together with every other input.
import { useCallback, useEffect, useRef, useState } from "react";

export const SEARCH_DELAY_MS = 300;

export function useSearchText(
  /** The search the page applies (from the URL, or the value on its way there). */
  applied: string,
  /** Sends a trimmed search text on its own (typing stopped). */
  apply: (q: string) => void,
) {
  const [text, setText] = useState(applied);
  // The text as typed, and the trimmed text last sent: read by timers and by `flush`, which
  // run between renders.
  const typed = useRef(applied);
  const sent = useRef(applied);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const applyRef = useRef(apply);
  useEffect(() => {
    applyRef.current = apply;
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  // The applied search is the one sent, or came from elsewhere (back button, reset): the box
  // follows the latter, and drops what was waiting to be sent.
  useEffect(() => {
    if (applied === sent.current) return;
    clearTimeout(timer.current);
    sent.current = applied;
    typed.current = applied;
    setText(applied);
  }, [applied]);

  const type = useCallback((value: string) => {
    typed.current = value;
    setText(value);
    clearTimeout(timer.current);
    // Compared trimmed, as the URL keeps it: a space typed between two words stays in the box.
    if (value.trim() === sent.current) return;
    timer.current = setTimeout(() => {
      sent.current = typed.current.trim();
      applyRef.current(sent.current);
    }, SEARCH_DELAY_MS);
  }, []);

  /**
   * The typed text not yet sent (trimmed), to go out with another change now; undefined when
   * nothing waits.
   */
  const flush = useCallback((): string | undefined => {
    if (typed.current.trim() === sent.current) return undefined;
    clearTimeout(timer.current);
    sent.current = typed.current.trim();
    return sent.current;
  }, []);

  return { text, type, flush } as const;
}
