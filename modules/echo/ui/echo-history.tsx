import { useRef, useState } from "react";
import { api, LazyLoadMore, usePagedList } from "../../shared/index";
import type { EchoHistory as History, EchoVersion } from "../schema";

const time = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

/**
 * An echo's earlier versions on its page (decision 025), newest first, a page at a time. Text is
 * shown as text (never HTML); a version's warning is said above its text, which the reader has
 * already chosen to see by opening the history.
 */
function Versions({ echoId }: { echoId: string }) {
  const rows = useRef<HTMLOListElement>(null);
  const list = usePagedList<EchoVersion>({
    first: null,
    load: async (at) => {
      const page = await api<History>(`/echo/${echoId}/history${at?.nextCursor ? `?cursor=${encodeURIComponent(at.nextCursor)}` : ""}`, {
        fallback: "Failed to load the edit history",
      });
      return { items: page.versions, at: page.pagination };
    },
    key: (v) => String(v.version),
  });

  return (
    <div className="history-list">
      <ol aria-label="Earlier versions, newest first" aria-busy={list.state === "loading"} ref={rows}>
        {list.items.map((v) => (
          <li key={v.version} className="history-version">
            <p className="echo-time">{v.version === 0 ? `Posted ${time(v.createdAt)}` : `Edited ${time(v.createdAt)}`}</p>
            {v.warning && (
              <p className="echo-warning">
                Content warning: <bdi>{v.warning}</bdi>
              </p>
            )}
            <p className="echo-content" dir="auto">
              {v.content}
            </p>
            {v.tags.length > 0 && <p className="echo-time">{v.tags.map((t) => `#${t}`).join(" ")}</p>}
          </li>
        ))}
      </ol>
      <LazyLoadMore list={list} label="Show older versions" rows={rows} />
    </div>
  );
}

/** The echo page's "Show edit history" disclosure (loaded with the page's first edited echo, off home's JS). */
export function EchoHistory(props: { echoId: string; editedAt: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="echo-history" aria-label="Edit history">
      <button type="button" className="btn cw-toggle" aria-expanded={open} aria-controls="echo-history" onClick={() => setOpen(!open)}>
        {open ? "Hide edit history" : "Show edit history"}
      </button>
      {/* a new edit (editedAt) reads the list again from its newest version */}
      <div id="echo-history">{open && <Versions key={props.editedAt} echoId={props.echoId} />}</div>
    </section>
  );
}
