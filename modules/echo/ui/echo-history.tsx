import { useEffect, useState } from "react";
import { api } from "../../shared/index";
import type { EchoHistory as History, EchoVersion } from "../schema";

const time = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

/**
 * An echo's earlier versions on its page (decision 025), newest first, a page at a time. Text is
 * shown as text (never HTML); a version's warning is said above its text, which the reader has
 * already chosen to see by opening the history.
 */
function Versions({ echoId, editedAt }: { echoId: string; editedAt: string }) {
  const [versions, setVersions] = useState<EchoVersion[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [state, setState] = useState<"loading" | "idle" | "failed">("loading");

  async function load(cursor: string | null) {
    setState("loading");
    try {
      const page = await api<History>(`/echo/${echoId}/history${cursor ? `?cursor=${cursor}` : ""}`, { fallback: "Failed to load the edit history" });
      setVersions((list) => (cursor ? [...list, ...page.versions] : page.versions));
      setNext(page.pagination.nextCursor);
      setState("idle");
    } catch {
      setState("failed");
    }
  }
  // a new edit (editedAt) reloads the list from its newest version (load is this render's: not a dependency)
  useEffect(() => {
    void load(null);
  }, [echoId, editedAt]);

  return (
    <div className="history-list">
      <ol aria-label="Earlier versions, newest first" aria-busy={state === "loading"}>
        {versions.map((v) => (
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
      {state === "failed" && (
        <p role="alert">
          Could not load the edit history.{" "}
          <button type="button" className="btn" onClick={() => void load(null)}>
            Retry
          </button>
        </p>
      )}
      {next && state !== "loading" && (
        <button type="button" className="btn" onClick={() => void load(next)}>
          Show older versions
        </button>
      )}
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
      <div id="echo-history">{open && <Versions {...props} />}</div>
    </section>
  );
}
