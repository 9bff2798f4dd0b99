import { createContext, useContext } from "react";

// The CSP nonce of this response. The server provides it through context; in the browser the
// same value is read back from the nonce'd head script (the `nonce` property; browsers hide
// the attribute), so hydration renders identical props.
const NonceContext = createContext<string | undefined>(undefined);
export const NonceProvider = NonceContext.Provider;

let clientNonce: string | undefined;
export function useNonce(): string | undefined {
  const fromServer = useContext(NonceContext);
  if (fromServer !== undefined || typeof document === "undefined") return fromServer;
  clientNonce ??= document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
  return clientNonce;
}
