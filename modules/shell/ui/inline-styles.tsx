import { createContext, useContext } from "react";

// The app's stylesheet, inlined into the head of every server-rendered document instead of a
// render-blocking <link>: one round trip less before first paint (Lighthouse, issue 6), for
// 4.3 KB gzipped per document (client-side navigations fetch no document). The server provides
// the text through context (routes/entry.server.tsx); in the browser the component reads it back
// from the element the server sent, so hydration renders identical props and the client bundle
// never carries the CSS. Same pattern as the nonce (nonce.tsx).
const StylesContext = createContext<string | undefined>(undefined);
export const StylesProvider = StylesContext.Provider;

const ID = "app-css";
let clientCss: string | undefined;

export function InlineStyles() {
  const fromServer = useContext(StylesContext);
  let css = fromServer;
  if (css === undefined && typeof document !== "undefined") css = clientCss ??= document.getElementById(ID)?.textContent ?? "";
  return <style id={ID} dangerouslySetInnerHTML={{ __html: css ?? "" }} />;
}
