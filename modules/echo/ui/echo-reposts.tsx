import { useEffect, useRef, useState, type ReactNode } from "react";
import { api, LazyLoadMore, usePagedList, type PageAt } from "../../shared/index";
import type { Echo, EchoPage, RepostersPage } from "../schema";
import { EchoCard } from "./echo-card";

const after = (at: PageAt | null, sep: string) => (at?.nextCursor ? `${sep}cursor=${encodeURIComponent(at.nextCursor)}` : "");

function Reposters({ echoId }: { echoId: string }) {
  const rows = useRef<HTMLUListElement>(null);
  const list = usePagedList<RepostersPage["users"][number]>({
    first: null,
    load: async (at) => {
      const page = await api<RepostersPage>(`/echo/${echoId}/reposts${after(at, "?")}`, { fallback: "Failed to load reposts" });
      return { items: page.users, at: page.pagination };
    },
    key: (u) => u._id,
  });
  return (
    <>
      <ul className="repost-list" aria-label="Reposted by" aria-busy={list.state === "loading"} ref={rows}>
        {list.items.map((u) => (
          <li key={u._id}>
            <a href={`/user/${u._id}`}>
              @<bdi>{u.userName}</bdi>
            </a>
          </li>
        ))}
      </ul>
      {list.at && list.items.length === 0 && <p className="feed-end">No reposts yet</p>}
      <LazyLoadMore list={list} label="Load more reposts" rows={rows} />
    </>
  );
}

function Quotes({ echoId, viewerId }: { echoId: string; viewerId: string }) {
  const rows = useRef<HTMLOListElement>(null);
  const list = usePagedList<Echo>({
    first: null,
    load: async (at) => {
      const page = await api<EchoPage>(`/echo/${echoId}/quotes?limit=10${after(at, "&")}`, { fallback: "Failed to load quotes" });
      return { items: page.echos, at: page.pagination };
    },
    key: (e) => e._id,
  });
  return (
    <>
      <ol className="thread-list" aria-label="Quotes" aria-busy={list.state === "loading"} ref={rows}>
        {list.items.map((echo) => (
          <li key={echo._id}>
            <EchoCard echo={echo} viewerId={viewerId} />
          </li>
        ))}
      </ol>
      {list.at && list.items.length === 0 && <p className="feed-end">No quotes yet</p>}
      <LazyLoadMore list={list} label="Load more quotes" rows={rows} />
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
