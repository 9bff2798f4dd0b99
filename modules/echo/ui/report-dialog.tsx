import { useEffect, useRef, useState } from "react";
import { MAX_REPORT_REASON } from "../schema";
import { reportEcho } from "./echo-more-actions";

const REASONS = ["Spam", "Harassment", "Misinformation", "Something else"];

/** Report asks a reason, records it and confirms with a toast (product decisions). */
export function ReportDialog({ echoId, onClose }: { echoId: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState(REASONS[0]!);
  const [detail, setDetail] = useState("");
  const [sending, setSending] = useState(false);

  useEffect(() => {
    ref.current?.showModal();
  }, []);
  // closing through the element (not by unmounting it open) lets the browser give focus back to
  // what opened the dialog; its close event then calls onClose
  const close = () => ref.current?.close();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setSending(true);
    const text = detail.trim() ? `${reason}: ${detail.trim()}` : reason;
    const ok = await reportEcho(echoId, text.slice(0, MAX_REPORT_REASON));
    setSending(false);
    if (ok) close();
  }

  return (
    <dialog ref={ref} className="dialog" onClose={onClose} aria-labelledby="report-title">
      <form onSubmit={submit}>
        <h2 id="report-title">Report echo</h2>
        <fieldset className="radio-list">
          <legend>Why are you reporting this echo?</legend>
          {REASONS.map((r) => (
            <label key={r}>
              <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => setReason(r)} /> {r}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Details (optional)</span>
          <textarea value={detail} maxLength={400} rows={3} onChange={(e) => setDetail(e.target.value)} />
        </label>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending ? "Reporting..." : "Report"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
