// /account-status (decision 029): what moderators did to the viewer's account — its state and each
// notice with its reason — and the one appeal each warn, limit, suspension or hidden echo allows.
import { useState } from "react";
import { Link } from "react-router";
import { api, toast } from "../../shared/index";
import { NOTICE_TEXT, type ModerationNotice, type MyModeration } from "../schema";

const moment = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" });

const STATE_TEXT = {
  active: "Your account is in good standing.",
  limited: "Your account is limited: your echos don't show in public lists (All, tags, search, feeds, popular). Your followers still see them.",
  suspended: "Your account is suspended.",
} as const;

function Notice({ initial }: { initial: ModerationNotice }) {
  const [notice, setNotice] = useState(initial);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const fieldId = `appeal-${notice._id}`;

  async function appeal(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await api<{ notice: ModerationNotice }>(`/moderation/appeal/${notice._id}`, { method: "POST", body: { text: text.trim() }, fallback: "Failed to send the appeal" });
      setNotice(res.notice);
      toast.success("Appeal sent");
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="card">
      <p>
        <strong>{NOTICE_TEXT[notice.action] ?? notice.action}</strong> <span className="muted">· {moment(notice.createdAt)}</span>
      </p>
      {notice.echoId && (
        <p>
          <Link to={`/echo/${notice.echoId}`}>The echo</Link>
        </p>
      )}
      <p>
        Reason: <q>{notice.reason}</q>
      </p>
      {notice.appeal !== null ? (
        <p className="muted">
          You appealed: <q>{notice.appeal}</q>
        </p>
      ) : (
        notice.canAppeal && (
          <form onSubmit={appeal}>
            <div className="field">
              <label htmlFor={fieldId}>Appeal (once)</label>
              <textarea id={fieldId} value={text} maxLength={500} rows={2} required onChange={(e) => setText(e.target.value)} />
            </div>
            <button type="submit" className="btn btn-primary btn-sm" disabled={busy || !text.trim()}>
              Send appeal
            </button>
          </form>
        )
      )}
    </li>
  );
}

export function AccountStatusScreen({ status }: { status: MyModeration }) {
  return (
    <div className="page account-status">
      <h1 className="page-title">Account status</h1>
      <section className="card" aria-labelledby="standing-title">
        <h2 id="standing-title">Standing</h2>
        <p>{STATE_TEXT[status.state]}</p>
        {status.isModerator && (
          <p>
            You are a moderator: <Link to="/moderation">open the moderation queue</Link>.
          </p>
        )}
      </section>
      <section aria-labelledby="notices-title">
        <h2 id="notices-title">What moderators did</h2>
        {status.notices.length === 0 ? (
          <p className="muted">No moderator has acted on your account.</p>
        ) : (
          <ul className="moderation-notices">
            {status.notices.map((n) => (
              <Notice key={n._id} initial={n} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
