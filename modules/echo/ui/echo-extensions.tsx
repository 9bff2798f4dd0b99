import { createContext, useContext, type ReactNode } from "react";
import type { Echo } from "../schema";

/**
 * What other modules add to the echo menu without the echo module knowing them: the scroll
 * module's Save to Scroll dialog, Remove from Scroll on one's own curation, and "Why am I seeing
 * this?" in a feed (or the creator's "why isn't it?" on an echo's page). Search marks the matched
 * words and tags (ui/search-marks.tsx), so home's first load does not carry that code.
 */
export type EchoExtensions = {
  marks?: { text: (echo: Echo, text: string, from: number) => ReactNode; tag: (echo: Echo, name: string) => ReactNode };
  saveToScroll?: (echo: Echo, close: () => void) => ReactNode;
  removeFromScroll?: (echo: Echo) => Promise<boolean>;
  explain?: { label: string; dialog: (echo: Echo, close: () => void) => ReactNode };
};

const Extensions = createContext<EchoExtensions>({});

export function EchoExtensionsProvider({ value, children }: { value: EchoExtensions; children: ReactNode }) {
  const outer = useContext(Extensions);
  return <Extensions.Provider value={{ ...outer, ...value }}>{children}</Extensions.Provider>;
}

export const useEchoExtensions = () => useContext(Extensions);
