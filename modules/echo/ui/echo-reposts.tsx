import { useEffect, useState, type ReactNode } from "react";
import { api } from "../../shared/index";
import type { Echo, EchoPage, RepostersPage } from "../schema";
import { EchoCard } from "./echo-card";

type Page<T> = { items: T[]; next: string | null };

/** A list read a page at a time by cursor when first opened, with "Load more". */
function useCursorList<T>(load: (cursor: string | null) => Promise<Page<T>>) {
  const [items, setItems] = useState<T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [state, setState] = useState<"loading" | "idle" | "failed">("loading");
  async function more(cursor: string | null) {
    setState("loading");
    try {
      const page = await load(cursor);
      setItems((list) => (cursor ? [...list, ...page.items] : page.items));
      setNext(page.next);
      setState("idle");
    } catch {
      setState("failed");
    }
  }
  // the first page when the disclosure opens (more is this render's: not a dependency)
  useEffect(() => {
    void more(null);
  }, []);
  return { items, next, state, more };
}

function Footer({ state, next, more, what }: { state: string; next: string | null; more: (c: string | null) => void; what: string }) {
  return (
    <>
      {state === "failed" && (
        <p role="alert">
          Could not load the {what}.{" "}
          <button type="button" className="btn" onClick={() => more(null)}>
            Retry
          </button>
        </p>
      )}
      {next && state !== "loading" && (
        <button type="button" className="btn" onClick={() => more(next)}>
          Load more {what}
        </button>
      )}
    </>
  );
}

function Reposters({ echoId }: { echoId: string }) {
  const list = useCursorList(async (cursor) => {
    const page = await api<RepostersPage>(`/echo/${echoId}/reposts${cursor ? `?cursor=${cursor}` : ""}`, { fallback: "Failed to load reposts" });
    return { items: page.users, next: page.pagination.nextCursor };
  });
  return (
    <>
      <ul className="repost-list" aria-label="Reposted by" aria-busy={list.state === "loading"}>
        {list.items.map((u) => (
          <li key={u._id}>
            <a href={`/user/${u._id}`}>
              @<bdi>{u.userName}</bdi>
            </a>
          </li>
        ))}
      </ul>
      {list.state === "idle" && list.items.length === 0 && <p className="feed-end">No reposts yet</p>}
      <Footer {...list} what="reposts" />
    </>
  );
}

function Quotes({ echoId, viewerId }: { echoId: string; viewerId: string }) {
  const list = useCursorList<Echo>(async (cursor) => {
    const page = await api<EchoPage>(`/echo/${echoId}/quotes?limit=10${cursor ? `&cursor=${cursor}` : ""}`, { fallback: "Failed to load quotes" });
    return { items: page.echos, next: page.pagination.nextCursor };
  });
  return (
    <>
      <ol className="thread-list" aria-label="Quotes" aria-busy={list.state === "loading"}>
        {list.items.map((echo) => (
          <li key={echo._id}>
            <EchoCard echo={echo} viewerId={viewerId} />
          </li>
        ))}
      </ol>
      {list.state === "idle" && list.items.length === 0 && <p className="feed-end">No quotes yet</p>}
      <Footer {...list} what="quotes" />
    </>
  );
}

function Disclosure({ id, label, hash, children }: { id: string; label: string; hash?: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // opened by its address (after hydration: the server does not see the hash)
  useEffect(() => {
    if (hash && window.location.hash === hash) setOpen(true);
  }, [hash]);
  return (
    <div className="echo-history">
      <button type="button" className="btn cw-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {label}
      </button>
      <div id={id}>{open && children}</div>
    </div>
  );
}

/**
 * The echo page's "Reposted by" and "Quotes" (decision 027): each a disclosure that reads its
 * first page when opened; `#quotes` (the card's quote count links there) opens the quotes.
 */
export function EchoReposts({ echo, viewerId }: { echo: Echo; viewerId: string }) {
  return (
    <section className="echo-reposts" aria-label="Reposts and quotes" id="quotes">
      <Disclosure id="echo-reposters" label={`Reposted by (${echo.reposts})`}>
        <Reposters echoId={echo._id} />
      </Disclosure>
      <Disclosure id="echo-quotes" label={`Quotes (${echo.quotes})`} hash="#quotes">
        <Quotes echoId={echo._id} viewerId={viewerId} />
      </Disclosure>
    </section>
  );
}
