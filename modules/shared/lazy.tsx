import { lazy, Suspense, type ComponentType } from "react";

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
 * of the page's initial JavaScript (issue 6). A chunk that cannot load (offline, a deploy
 * replaced it) renders nothing rather than taking the page to its error boundary.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(() =>
    load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        console.warn("a lazily loaded component could not load", error);
        return { default: (() => null) as ComponentType<P> };
      },
    ),
  );
  return function LazyComponent(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}
