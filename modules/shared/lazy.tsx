import { lazy, Suspense, useEffect, type ComponentType } from "react";

/**
 * A dynamic import that runs once and is shared by every caller; a failed load (offline, a
 * deploy replaced the chunk) is forgotten, so the next call tries again.
 */
export function cachedImport<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    if (!pending) {
      pending = load();
      pending.catch(() => (pending = null));
    }
    return pending;
  };
}

/**
 * A component whose code loads on first render (React.lazy) inside its own Suspense boundary
 * that shows nothing meanwhile: for dialogs and other UI only an interaction brings up, kept out
 * of the page's initial JavaScript (issue 6). `preload()` starts the load early (a menu that can
 * open the dialog starts it when it opens), so the interaction does not wait for the network.
 * A chunk that cannot load (offline, a deploy replaced it) renders nothing rather than taking
 * the page to its error boundary: it calls `onFail` (the caller says so) and the props' `onClose`
 * (a dialog that cannot open closes), and the next render tries the network again.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  onFail?: () => void,
): ComponentType<P> & { preload: () => void } {
  const get = cachedImport(load);
  const make = () =>
    lazy(() =>
      get().then(
        (component) => ({ default: component }),
        (error: unknown) => {
          console.warn("a lazily loaded component could not load", error);
          Lazy = make();
          return { default: (({ onClose }: { onClose?: () => void }) => <Failed onClose={onClose} onFail={onFail} />) as ComponentType<P> };
        },
      ),
    );
  let Lazy = make();
  function LazyComponent(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyComponent.preload = () => void get().catch(() => {});
  return LazyComponent;
}

function Failed({ onClose, onFail }: { onClose?: () => void; onFail?: () => void }) {
  useEffect(() => {
    onFail?.();
    onClose?.();
    // once, when the failure shows
  }, []);
  return null;
}
