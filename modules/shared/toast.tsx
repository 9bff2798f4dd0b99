// Toasts through react-hot-toast, loaded after the page (when it is idle, or on the first toast
// if sooner) instead of with it: it and its CSS-in-JS (goober) are ~4.6 KB gzipped that no first
// paint needs (issue 6's JS budget).
// `toast.success/error` queue behind the import; <Toaster /> (in the root) mounts the library's
// own Toaster once something asked for a toast. react-hot-toast keeps its toasts in a module-level
// store, so a toast sent before its Toaster mounted is shown as soon as it does.
import { useEffect, useSyncExternalStore, type ComponentProps } from "react";
import { cachedImport, lazyComponent } from "./lazy";

type Library = typeof import("react-hot-toast");

// a failed load (offline) may be retried by the next toast
const importLibrary = cachedImport(() => import("react-hot-toast"));
let requested = false;
const listeners = new Set<() => void>();

function load(): Promise<Library> {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  return importLibrary();
}

type Kind = "success" | "error";
type Sent = { kind: Kind; message: string; at: number };
/** Toasts of the last moments, for a document navigation to take along (carryToasts). */
let recent: Sent[] = [];
const CARRIED_KEY = "echo.toasts";
const CARRY_MS = 4000;

const show = (kind: Kind) => (message: string) => {
  recent = [...recent.filter((t) => Date.now() - t.at < CARRY_MS), { kind, message, at: Date.now() }];
  void load().then(
    (m) => m.default[kind](message),
    (error: unknown) => console.warn("toasts could not load", error),
  );
};

export const toast = { success: show("success"), error: show("error") };

/**
 * A navigation into another vertical loads a new document (docs/decisions/011): a toast just sent
 * ("Logged in successfully" on the way to /) goes with it through sessionStorage and is shown by
 * the next document's Toaster.
 */
export function carryToasts(): void {
  const fresh = recent.filter((t) => Date.now() - t.at < CARRY_MS);
  try {
    if (fresh.length) sessionStorage.setItem(CARRIED_KEY, JSON.stringify(fresh.map(({ kind, message }) => ({ kind, message }))));
  } catch {
    // storage refused (private mode): the toast stays behind, the navigation goes on
  }
}

function showCarriedToasts(): void {
  // a page rendered ahead (Speculation Rules prerender) has a copy of sessionStorage taken before
  // the toast was carried; the tab's own is there once the page is shown
  if ((document as { prerendering?: boolean }).prerendering) {
    document.addEventListener("prerenderingchange", showCarriedToasts, { once: true });
    return;
  }
  let carried: { kind: Kind; message: string }[] = [];
  try {
    carried = JSON.parse(sessionStorage.getItem(CARRIED_KEY) ?? "[]");
    sessionStorage.removeItem(CARRIED_KEY);
  } catch {
    return;
  }
  for (const t of carried) if ((t.kind === "success" || t.kind === "error") && typeof t.message === "string") toast[t.kind](t.message);
}

const LibraryToaster = lazyComponent(() => load().then((m) => m.Toaster));

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Renders nothing (on the server too) until the first toast; then react-hot-toast's Toaster. */
export function Toaster(props: ComponentProps<Library["Toaster"]>) {
  useEffect(() => {
    showCarriedToasts();
    // fetched (not shown) once the page is idle, out of the first load: a toast must still show
    // when the connection has dropped since, which is when errors happen (issue 29)
    (window.requestIdleCallback ?? setTimeout)(() => void importLibrary().catch(() => undefined));
  }, []);
  const active = useSyncExternalStore(subscribe, () => requested, () => false);
  return active ? <LibraryToaster {...props} /> : null;
}
