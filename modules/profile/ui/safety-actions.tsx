import { useState } from "react";
import { useRevalidator } from "react-router";
import { api, toast } from "../../shared/index";
import { MUTE_DURATION_LABELS, MUTE_DURATIONS, type MuteDuration, type SafetyRelation } from "../schema";

const until = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" });

/**
 * On another user's profile (issue 32): Block / Unblock, and Mute for a chosen time / Unmute.
 * Blocking asks first (it ends follows both ways); after either, the page's lists are read again
 * so the profile shows what the viewer now sees.
 */
export function SafetyActions({ userName, initial }: { userName: string; initial: SafetyRelation }) {
  const [relation, setRelation] = useState(initial);
  const [duration, setDuration] = useState<MuteDuration>("forever");
  const [working, setWorking] = useState(false);
  const revalidator = useRevalidator();
  const who = `@${userName}`;

  async function change(path: "block" | "mute", method: "POST" | "DELETE", done: string, fallback: string) {
    setWorking(true);
    try {
      const body = path === "mute" && method === "POST" ? { duration } : undefined;
      setRelation(await api<SafetyRelation>(`/profile/user/${relation.userId}/${path}`, { method, body, fallback }));
      toast.success(done);
      void revalidator.revalidate();
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setWorking(false);
    }
  }

  function block() {
    if (!window.confirm(`Block ${who}? Neither of you will see the other's echos, and follows between you end.`)) return;
    void change("block", "POST", `Blocked ${who}`, "Failed to block");
  }

  return (
    <section className="safety-actions" aria-label={`Block or mute ${who}`}>
      {relation.blocked ? (
        <p className="field-hint">You block {who}: neither of you sees the other's echos.</p>
      ) : relation.muted ? (
        <p className="field-hint">You mute {who}{relation.mutedUntil ? ` until ${until(relation.mutedUntil)}` : ""}: their echos and notifications stay out of your lists.</p>
      ) : null}
      <div className="safety-buttons">
        {relation.blocked ? (
          <button type="button" className="btn btn-sm" disabled={working} onClick={() => void change("block", "DELETE", `Unblocked ${who}`, "Failed to unblock")}>
            Unblock
          </button>
        ) : (
          <button type="button" className="btn btn-sm btn-danger" disabled={working} onClick={block}>
            Block
          </button>
        )}
        {relation.muted ? (
          <button type="button" className="btn btn-sm" disabled={working} onClick={() => void change("mute", "DELETE", `Unmuted ${who}`, "Failed to unmute")}>
            Unmute
          </button>
        ) : (
          !relation.blocked && (
            <>
              <label className="visually-hidden" htmlFor="mute-duration">
                Mute for
              </label>
              <select id="mute-duration" value={duration} onChange={(e) => setDuration(e.target.value as MuteDuration)}>
                {MUTE_DURATIONS.map((d) => (
                  <option key={d} value={d}>
                    {MUTE_DURATION_LABELS[d]}
                  </option>
                ))}
              </select>
              <button type="button" className="btn btn-sm" disabled={working} onClick={() => void change("mute", "POST", `Muted ${who}`, "Failed to mute")}>
                Mute
              </button>
            </>
          )
        )}
      </div>
    </section>
  );
}
