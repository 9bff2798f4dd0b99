import { createContext, useContext } from "react";

// The CSP nonce of this response. The server sets it; in the browser the nonce attribute reads
// back empty (browsers hide it), so hydration of nonce'd scripts suppresses that warning.
const NonceContext = createContext<string | undefined>(undefined);
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
