// /moderation (decision 029): the moderators' queue of cases (reported echos grouped by echo,
// appeals) and the audit log. Each case carries one "Reason or note" field that its actions send:
// take the case, hide the echo, warn, limit or suspend the account, resolve it. Plain buttons and
// labelled fields (keyboard order = reading order); outcomes are announced by toasts.
import { useRef, useState } from "react";
import { Link } from "react-router";
import { api, LoadMore, toast, usePagedList, type PageAt } from "../../shared/index";
import type { AuditPage, ModerationAction, ModerationCase, QueuePage } from "../schema";

const moment = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" });

const STATE_LABEL = { active: "Active", limited: "Limited", suspended: "Suspended" } as const;

type Act = { label: string; done: string; danger?: boolean; path: (c: ModerationCase) => string; body: (text: string) => unknown; needsText: boolean };

const ACTS: Record<string, Act> = {
  assign: { label: "Assign to me", done: "Assigned to you", path: (c) => `/moderation/case/${c._id}/assign`, body: () => ({}), needsText: false },
  hide: { label: "Hide echo", done: "Echo hidden", danger: true, path: (c) => `/moderation/echo/${c.echoId}`, body: (reason) => ({ hidden: true, reason }), needsText: true },
  warn: { label: "Warn", done: "Warning sent", path: (c) => `/moderation/user/${c.user._id}`, body: (reason) => ({ action: "warn", reason }), needsText: true },
  limit: { label: "Limit", done: "Account limited", danger: true, path: (c) => `/moderation/user/${c.user._id}`, body: (reason) => ({ action: "limit", reason }), needsText: true },
  suspend: { label: "Suspend", done: "Account suspended", danger: true, path: (c) => `/moderation/user/${c.user._id}`, body: (reason) => ({ action: "suspend", reason }), needsText: true },
  resolve: { label: "Resolve", done: "Case resolved", path: (c) => `/moderation/case/${c._id}/resolve`, body: (note) => ({ note }), needsText: true },
  // the reversible actions undone (audit-logged as unhide, unlimit, unsuspend)
  unhide: { label: "Unhide echo", done: "Echo shown again", path: (c) => `/moderation/echo/${c.echoId}`, body: (reason) => ({ hidden: false, reason }), needsText: true },
  unlimit: { label: "Lift limit", done: "Limit lifted", path: (c) => `/moderation/user/${c.user._id}`, body: (reason) => ({ action: "unlimit", reason }), needsText: true },
  unsuspend: { label: "Lift suspension", done: "Suspension lifted", path: (c) => `/moderation/user/${c.user._id}`, body: (reason) => ({ action: "unsuspend", reason }), needsText: true },
};

type ActResult = { case?: ModerationCase; hidden?: boolean; user?: ModerationCase["user"] };

function CaseCard({ initial, onAction }: { initial: ModerationCase; onAction: () => void }) {
  const [c, setCase] = useState(initial);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  // whether moderators hide the case's echo (the queue says; an action here changes it): Unhide undoes it
  const [hidden, setHidden] = useState(initial.echoHidden);
  const fieldId = `case-${c._id}-text`;
  const titleId = `case-${c._id}-title`;

  async function run(key: string) {
    const act = ACTS[key]!;
    if (act.needsText && !text.trim()) {
      toast.error(key === "resolve" ? "Write a note first" : "Write a reason first");
      document.getElementById(fieldId)?.focus();
      return;
    }
    setBusy(true);
    try {
      const res = await api<ActResult>(act.path(c), { method: "POST", body: act.body(text.trim()), fallback: `Failed: ${act.label}` });
      if (res.case) setCase(res.case);
      if (res.hidden !== undefined) setHidden(res.hidden);
      const user = res.user;
      if (user) setCase((shown) => ({ ...shown, user: { ...shown.user, state: user.state } }));
      toast.success(act.done);
      if (key !== "assign") setText("");
      onAction();
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  // a limited or suspended account offers its lift instead; the lifts and Unhide stay on a
  // resolved case (the actions are reversible, decision 029)
  const { state } = c.user;
  const echoAct = c.echoId ? [hidden ? "unhide" : "hide"] : [];
  const reversible = [...(hidden ? ["unhide"] : []), ...(state === "limited" ? ["unlimit"] : []), ...(state === "suspended" ? ["unsuspend"] : [])];
  const actions = c.resolvedAt
    ? reversible
    : ["assign", ...echoAct, "warn", state === "limited" ? "unlimit" : "limit", state === "suspended" ? "unsuspend" : "suspend", "resolve"];
  return (
    <li className="card moderation-case" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {c.kind === "appeal" ? "Appeal by " : "Reported echo by "}
        <Link to={`/user/${c.user._id}`}>@{c.user.userName}</Link> <span className="muted">({STATE_LABEL[c.user.state]})</span>
      </h3>
      {c.echoContent !== null && (
        <blockquote className="moderation-echo">
          <Link to={`/echo/${c.echoId}`}>{c.echoContent}</Link>
          {hidden && <span className="muted"> (hidden from everyone but its author)</span>}
        </blockquote>
      )}
      <p>
        {c.kind === "appeal" ? "Appeal: " : `${c.reportsCount} ${c.reportsCount === 1 ? "report" : "reports"}, latest: `}
        <q>{c.latestReason}</q> <span className="muted">· {moment(c.latestAt)}</span>
      </p>
      <p className="muted">
        {c.resolvedAt ? `Resolved ${moment(c.resolvedAt)}${c.note ? `: ${c.note}` : ""}` : c.assignee ? `Assigned to @${c.assignee.userName}` : "Not assigned"}
      </p>
      {actions.length > 0 && (
        <>
          <div className="field">
            <label htmlFor={fieldId}>Reason or note</label>
            <textarea id={fieldId} value={text} maxLength={500} rows={2} onChange={(e) => setText(e.target.value)} />
            <span className="field-hint">The account's owner reads the reason of a warning, limit, suspension or hidden echo.</span>
          </div>
          <div className="moderation-actions" role="group" aria-label={`Actions on this case`}>
            {actions.map((key) => (
              <button key={key} type="button" className={`btn btn-sm${ACTS[key]!.danger ? " btn-danger" : ""}`} disabled={busy} onClick={() => run(key)}>
                {ACTS[key]!.label}
              </button>
            ))}
          </div>
        </>
      )}
    </li>
  );
}

function LogEntry({ a }: { a: ModerationAction }) {
  return (
    <li>
      <span className="muted">{moment(a.createdAt)}</span> · @{a.moderator.userName} <strong>{a.action}</strong>
      {a.user && <> · @{a.user.userName}</>}
      {a.reason && (
        <>
          {" "}
          · <q>{a.reason}</q>
        </>
      )}
      {a.appeal && (
        <>
          {" "}
          · appealed: <q>{a.appeal}</q>
        </>
      )}
    </li>
  );
}

/** The queue and the log, their first pages from the loader; "Show more" goes on by cursor (shared/paged-list). */
export function ModerationScreen({ queue, log }: { queue: QueuePage; log: AuditPage }) {
  const caseRows = useRef<HTMLUListElement>(null);
  const logRows = useRef<HTMLUListElement>(null);
  const after = (at: PageAt | null) => (at?.nextCursor ? `?cursor=${encodeURIComponent(at.nextCursor)}` : "");
  const cases = usePagedList<ModerationCase>({
    first: { items: queue.cases, at: queue.pagination },
    load: async (at) => {
      const page = await api<QueuePage>(`/moderation/queue${after(at)}`, { fallback: "Failed to load cases" });
      return { items: page.cases, at: page.pagination };
    },
    key: (c) => c._id,
  });
  const actions = usePagedList<ModerationAction>({
    first: { items: log.actions, at: log.pagination },
    load: async (at) => {
      const page = await api<AuditPage>(`/moderation/log${after(at)}`, { fallback: "Failed to load the log" });
      return { items: page.actions, at: page.pagination };
    },
    key: (a) => a._id,
  });
  // an action on a case shows in the log at once: its first page again (quietly, as before)
  async function refreshLog() {
    const page = await api<AuditPage>("/moderation/log", { fallback: "Failed to load the log" }).catch(() => null);
    if (page) actions.reset({ items: page.actions, at: page.pagination });
  }

  return (
    <div className="page moderation">
      <h1 className="page-title">Moderation</h1>
      <section aria-labelledby="queue-title">
        <h2 id="queue-title">Queue</h2>
        {cases.items.length === 0 ? (
          <p className="muted">No open cases.</p>
        ) : (
          <ul className="moderation-cases" ref={caseRows}>
            {cases.items.map((c) => (
              <CaseCard key={c._id} initial={c} onAction={refreshLog} />
            ))}
          </ul>
        )}
        <LoadMore list={cases} label="Show more cases" rows={caseRows} />
      </section>
      <section className="card" aria-labelledby="log-title">
        <h2 id="log-title">Audit log</h2>
        {actions.items.length === 0 ? (
          <p className="muted">No actions yet.</p>
        ) : (
          <ul className="moderation-log" ref={logRows}>
            {actions.items.map((a) => (
              <LogEntry key={a._id} a={a} />
            ))}
          </ul>
        )}
        <LoadMore list={actions} label="Show more actions" rows={logRows} />
      </section>
    </div>
  );
}

/** /moderation for anyone who is no moderator. */
export function NotAModerator() {
  return (
    <div className="page moderation">
      <h1 className="page-title">Moderation</h1>
      <p>Only moderators can see this page.</p>
    </div>
  );
}
