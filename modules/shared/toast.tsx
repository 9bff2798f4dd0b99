// Toasts through react-hot-toast, loaded on the first toast instead of with the page: it and its
// CSS-in-JS (goober) are ~4.6 KB gzipped that no first paint needs (issue 6's JS budget).
// `toast.success/error` queue behind the import; <Toaster /> (in the root) mounts the library's
// own Toaster once something asked for a toast. react-hot-toast keeps its toasts in a module-level
// store, so a toast sent before its Toaster mounted is shown as soon as it does.
import { useSyncExternalStore, type ComponentProps } from "react";
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

const show = (kind: "success" | "error") => (message: string) =>
  void load().then(
    (m) => m.default[kind](message),
    (error: unknown) => console.warn("toasts could not load", error),
  );

export const toast = { success: show("success"), error: show("error") };

const LibraryToaster = lazyComponent(() => load().then((m) => m.Toaster));

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Renders nothing (on the server too) until the first toast; then react-hot-toast's Toaster. */
export function Toaster(props: ComponentProps<Library["Toaster"]>) {
  const active = useSyncExternalStore(subscribe, () => requested, () => false);
  return active ? <LibraryToaster {...props} /> : null;
}
