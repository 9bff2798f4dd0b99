import { useId, useState } from "react";
import { api, charCount, MAX_MUTED_WORD, MAX_MUTED_WORDS, MUTE_CONTEXT_LABELS, MUTE_CONTEXTS, toast, type MuteContext } from "../../shared/index";
import { MUTE_DURATION_LABELS, MUTE_DURATIONS, type MuteDuration, type MutedWord } from "../schema";

const moment = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" });

const DURATION_LABEL = (d: MuteDuration) => (d === "forever" ? "Until I remove it" : MUTE_DURATION_LABELS[d]);

/**
 * Settings → muted words (issue 32, decision 028): add a phrase or #tag (hide or warn, where,
 * for how long) and the list, newest first, each with its Remove. The server applies them, so
 * every client sees the same lists.
 */
export function MutedWords({ initial }: { initial: MutedWord[] }) {
  const id = useId();
  const [words, setWords] = useState(initial);
  const [phrase, setPhrase] = useState("");
  const [action, setAction] = useState<"hide" | "warn">("hide");
  const [contexts, setContexts] = useState<MuteContext[]>([...MUTE_CONTEXTS]);
  const [duration, setDuration] = useState<MuteDuration>("forever");
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  async function add(e: React.FormEvent) {
    e.preventDefault();
    const p = phrase.trim();
    if (!p) return setError("Type a word, a phrase or a #tag.");
    if (charCount(p) > MAX_MUTED_WORD) return setError(`At most ${MAX_MUTED_WORD} characters.`);
    if (contexts.length === 0) return setError("Choose at least one place.");
    setWorking(true);
    try {
      const word = await api<MutedWord>("/profile/me/muted-words", { method: "POST", body: { phrase: p, action, contexts, duration }, fallback: "Failed to mute the word" });
      setWords((shown) => [word, ...shown.filter((w) => w._id !== word._id)]);
      setPhrase("");
      setError(null);
      toast.success(`Muted “${word.phrase}”`);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setWorking(false);
    }
  }

  async function remove(word: MutedWord) {
    try {
      await api("/profile/me/muted-words/" + word._id, { method: "DELETE", fallback: "Failed to remove the word" });
      setWords((shown) => shown.filter((w) => w._id !== word._id));
      toast.success(`Removed “${word.phrase}”`);
      document.getElementById(`${id}-phrase`)?.focus();
    } catch (err) {
      toast.error((err as Error).message);
    }
  }

  const toggle = (c: MuteContext) => setContexts((cs) => (cs.includes(c) ? cs.filter((x) => x !== c) : MUTE_CONTEXTS.filter((x) => x === c || cs.includes(x))));

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Muted words</h2>
      <p className="field-hint">
        Echos with these words, phrases or #tags leave your lists, or show collapsed with a warning. Case and accents don&apos;t matter; whole words only. Your own echos are never hidden.
      </p>
      <form onSubmit={add} noValidate>
        <div className="field">
          <label htmlFor={`${id}-phrase`}>Word, phrase or #tag</label>
          <input
            id={`${id}-phrase`}
            value={phrase}
            onChange={(e) => setPhrase(e.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? `${id}-error` : undefined}
            autoComplete="off"
          />
          {error && (
            <span className="field-error" id={`${id}-error`} role="alert">
              {error}
            </span>
          )}
        </div>
        <fieldset className="radio-list">
          <legend>What to do</legend>
          <label>
            <input type="radio" name={`${id}-action`} checked={action === "hide"} onChange={() => setAction("hide")} /> Hide the echo
          </label>
          <label>
            <input type="radio" name={`${id}-action`} checked={action === "warn"} onChange={() => setAction("warn")} /> Show it collapsed, with a warning
          </label>
        </fieldset>
        <fieldset className="radio-list">
          <legend>Where</legend>
          {MUTE_CONTEXTS.map((c) => (
            <label key={c}>
              <input type="checkbox" checked={contexts.includes(c)} onChange={() => toggle(c)} /> {MUTE_CONTEXT_LABELS[c]}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-duration`}>For how long</label>
          <select id={`${id}-duration`} value={duration} onChange={(e) => setDuration(e.target.value as MuteDuration)}>
            {MUTE_DURATIONS.map((d) => (
              <option key={d} value={d}>
                {DURATION_LABEL(d)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={working || words.length >= MAX_MUTED_WORDS}>
          Mute word
        </button>
      </form>
      {words.length === 0 ? (
        <p className="muted muted-word-list">You haven&apos;t muted any words.</p>
      ) : (
        <ul className="people-list muted-word-list" aria-label="Your muted words">
          {words.map((w) => (
            <li key={w._id} className="person">
              <div className="person-text">
                <bdi className="muted-phrase">{w.phrase}</bdi>
                <p className="person-bio person-bio-full muted">
                  {w.action === "hide" ? "Hidden" : "Warned"} in {w.contexts.map((c) => MUTE_CONTEXT_LABELS[c]).join(", ")}
                  {w.expiresAt ? ` · until ${moment(w.expiresAt)}` : ""}
                </p>
              </div>
              <button type="button" className="btn btn-sm" aria-label={`Remove ${w.phrase}`} onClick={() => void remove(w)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
