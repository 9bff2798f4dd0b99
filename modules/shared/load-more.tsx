// The end of every paged list (paged-list.ts): the button, the announcement, the failure.
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { ApiError, OFFLINE_HINT } from "./api-client";
import type { PagedList } from "./paged-list";
import { toast } from "./toast";

/**
 * The end of a paged list: "Load more" (or the label given) while more follow, a hidden live
 * region that says what a page added, and on failure the message with Retry. The button is
 * aria-disabled (not disabled) while loading, so it keeps the focus; when it leaves (the last
 * page, a failure, a retry) the focus goes to what took its place: Retry, the button again, or
 * the first new row of `rows`.
 */
export function LoadMore<T>({ list, label = "Load more", rows, auto, note, onMore, failure }: {
  list: PagedList<T>;
  label?: string;
  /** the element whose children (or `[data-index]` rows) are the list's rows */
  rows?: RefObject<HTMLElement | null>;
  /** no button: the list pages as it scrolls (useScrollMore) */
  auto?: boolean;
  /** said with the button, which it brings back on an auto list (a feed still looking: decision 010) */
  note?: ReactNode;
  /** the button was pressed (before the page is asked for) */
  onMore?: () => void;
  /** said instead of the server's text (a feed's "Couldn't load more echos.") */
  failure?: string;
}) {
  const footer = useRef<HTMLDivElement>(null);
  const pressed = useRef(false);
  // the rows before the page being read: where the new ones start
  const from = useRef<number | null>(null);
  const [said, setSaid] = useState("");
  const { hasMore, state } = list;
  const loading = state === "loading";
  const offline = list.error instanceof ApiError && list.error.status === 0;
  const message = failure ? (offline ? `${failure} ${OFFLINE_HINT}` : failure) : (list.error as Error | null)?.message;

  useEffect(() => {
    const box = footer.current;
    if (!box) return;
    const button = box.querySelector("button");
    const start = from.current;
    if (state === "failed") toast.error(message!);
    if (loading) from.current ??= list.items.length;
    else {
      from.current = null;
      if (start !== null && state === "idle") setSaid(`${list.items.length - start} more loaded${hasMore ? "" : ", the end of the list"}`);
    }
    if (!pressed.current || box.contains(document.activeElement) || (loading && !button)) return;
    if (!loading) pressed.current = false;
    const row = (rows?.current?.querySelector(`:scope > [data-index="${start}"]`) ?? rows?.current?.children[start ?? -1]) as HTMLElement | undefined;
    const target = button ?? row?.querySelector<HTMLElement>("a[href], button") ?? row;
    if (target === row && row) row.tabIndex = -1;
    target?.focus();
  }, [state]);

  const press = () => {
    pressed.current = true;
    onMore?.();
    void list.more();
  };
  const button = (
    <button type="button" className={note ? "btn" : "btn btn-block"} aria-disabled={loading} onClick={() => !loading && press()}>
      {loading ? "Loading…" : label}
    </button>
  );
  return (
    <div ref={footer} className="load-more">
      <p role="status" className="visually-hidden">
        {said}
      </p>
      {state === "failed" ? (
        <div className="feed-failure" role="alert">
          <p>{message}</p>
          <button type="button" className="btn" onClick={press}>
            Retry
          </button>
        </div>
      ) : (
        hasMore &&
        (note ? (
          <p className="feed-end" role="status">
            {note} {button}
          </p>
        ) : (
          !auto && button
        ))
      )}
    </div>
  );
}
