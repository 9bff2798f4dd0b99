// Client-safe public face of the shell module: layout, theme, splash, nonce, inline styles.
export { AppShell } from "./ui/app-shell";
export { Splash } from "./ui/splash";
export { NonceProvider, useNonce } from "./ui/nonce";
export { InlineStyles, StylesProvider } from "./ui/inline-styles";
export { HEAD_SCRIPT, THEME_KEY, useTheme, type Theme } from "./ui/theme";
export { EmptyState } from "./ui/empty-state";
export { SettingsScreen } from "./ui/settings-screen";
export { PageChrome, MAIN_ID } from "./ui/navigation-feedback";
export { RouteError } from "./ui/route-error";
export { useDocumentNavigationAcrossVerticals, isOtherVertical } from "./ui/vertical-navigation";
export { SpeculationRules, speculationRules, eagerShellRules, hrefPattern } from "./ui/speculation-rules";
export { usePrerenderActivation } from "./ui/prerender";
