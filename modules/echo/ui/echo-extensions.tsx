import { createContext, useContext, type ReactNode } from "react";
import type { Echo } from "../schema";

/**
 * What other modules add to the echo menu without the echo module knowing them: the scroll
 * module's Save to Scroll dialog, and Remove from Scroll on one's own curation.
 */
export type EchoExtensions = {
  saveToScroll?: (echo: Echo, close: () => void) => ReactNode;
  removeFromScroll?: (echo: Echo) => Promise<boolean>;
};

const Extensions = createContext<EchoExtensions>({});

export function EchoExtensionsProvider({ value, children }: { value: EchoExtensions; children: ReactNode }) {
  const outer = useContext(Extensions);
  return <Extensions.Provider value={{ ...outer, ...value }}>{children}</Extensions.Provider>;
}

export const useEchoExtensions = () => useContext(Extensions);
