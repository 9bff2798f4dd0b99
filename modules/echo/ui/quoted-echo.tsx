import { useState } from "react";
import type { QuotedEcho as Quoted } from "../schema";
import { useEchoStore } from "./echo-store";
import { EchoText } from "./echo-text";

/**
 * A quote's embedded echo (decision 027): its author, its text (behind its own content warning,
 * opened on its own) and a link to it; or why it cannot be shown.
 */
export function QuotedEcho({ quoted: given, quoteId }: { quoted: Quoted; quoteId: string }) {
  const [opened, setOpened] = useState(false);
  // its edits and deletion on this page, live or the author's (echo-store.ts): the store patches by id
  const store = useEchoStore();
  const quoted = store.editOf(given as never) as unknown as Quoted;
  if (quoted.state !== "ok" || store.isDeleted(quoted)) {
    return <p className="echo-quoted echo-quoted-gone">{quoted.state === "unavailable" ? "This echo is unavailable" : "This echo was deleted"}</p>;
  }
  const region = `cwq-${quoteId}`;
  return (
    <blockquote className="echo-quoted" aria-label={`Quoted echo by @${quoted.author.userName}`}>
      <p className="echo-quoted-head">
        <a href={`/user/${quoted.author._id}`} className="echo-author">
          @<bdi>{quoted.author.userName}</bdi>
        </a>{" "}
        <a href={`/echo/${quoted._id}`}>Open quoted echo</a>
      </p>
      {quoted.warning && (
        <p className="echo-warning" dir="auto">
          <span>
            Content warning: <bdi>{quoted.warning}</bdi>
          </span>
          <button type="button" className="btn cw-toggle" aria-expanded={opened} aria-controls={region} onClick={() => setOpened(!opened)}>
            {opened ? "Hide text" : "Show text"}
          </button>
        </p>
      )}
      <p id={region} className="echo-content" dir="auto" hidden={!!quoted.warning && !opened}>
        <EchoText content={quoted.content} />
      </p>
    </blockquote>
  );
}
