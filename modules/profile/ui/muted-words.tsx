import { useId, useState } from "react";
import { useFetcher } from "react-router";
import { charCount, MAX_MUTED_WORD, MAX_MUTED_WORDS, MUTE_CONTEXT_LABELS, MUTE_CONTEXTS, toast, useFetcherAnswer, type MuteContext } from "../../shared/index";
import { MUTE_DURATION_LABELS, MUTE_DURATIONS, type MuteDuration, type MutedWord } from "../schema";

const moment = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" });

const DURATION_LABEL = (d: MuteDuration) => (d === "forever" ? "Until I remove it" : MUTE_DURATION_LABELS[d]);

/** What the settings page's action answers these forms (routes/pages/settings.tsx). */
type Answer = { done?: string; word?: MutedWord; error?: string };

/**
 * Settings → muted words (issue 32, decision 028): add a phrase or #tag (hide or warn, where,
 * for how long) and the list, newest first, each with its Remove. The server applies them, so
 * every client sees the same lists. Both forms post to the settings page's action (issue 30, the
 * intents "mute-word" and "unmute-word"); each row removes through its own fetcher, so quick
 * removals of two rows do not cancel each other.
 */
export function MutedWords({ initial }: { initial: MutedWord[] }) {
  const id = useId();
  const [words, setWords] = useState(initial);
  const [phrase, setPhrase] = useState("");
  const [action, setAction] = useState<"hide" | "warn">("hide");
  const [contexts, setContexts] = useState<MuteContext[]>([...MUTE_CONTEXTS]);
  const [duration, setDuration] = useState<MuteDuration>("forever");
  const [error, setError] = useState<string | null>(null);
  const fetcher = useFetcher<Answer>();
  const working = fetcher.state !== "idle";
  useFetcherAnswer(
    fetcher,
    ({ word }) => {
      if (!word) return;
      setWords((shown) => [word, ...shown.filter((w) => w._id !== word._id)]);
      setPhrase("");
      setError(null);
      toast.success(`Muted “${word.phrase}”`);
    },
    setError,
  );

  function add(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (working) return;
    const p = phrase.trim();
    if (!p) return setError("Type a word, a phrase or a #tag.");
    if (charCount(p) > MAX_MUTED_WORD) return setError(`At most ${MAX_MUTED_WORD} characters.`);
    if (contexts.length === 0) return setError("Choose at least one place.");
    // the form's named fields (intent, phrase, action, every checked context, duration)
    void fetcher.submit(e.currentTarget, { method: "post", action: "/settings" });
  }

  const removed = (word: MutedWord) => {
    setWords((shown) => shown.filter((w) => w._id !== word._id));
    toast.success(`Removed “${word.phrase}”`);
    document.getElementById(`${id}-phrase`)?.focus();
  };

  const toggle = (c: MuteContext) => setContexts((cs) => (cs.includes(c) ? cs.filter((x) => x !== c) : MUTE_CONTEXTS.filter((x) => x === c || cs.includes(x))));

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Muted words</h2>
      <p className="field-hint">
        Echos with these words, phrases or #tags leave your lists, or show collapsed with a warning. Case and accents don&apos;t matter; whole words only. Your own echos are never hidden.
      </p>
      <fetcher.Form method="post" action="/settings" onSubmit={add} noValidate>
        <input type="hidden" name="intent" value="mute-word" />
        <div className="field">
          <label htmlFor={`${id}-phrase`}>Word, phrase or #tag</label>
          <input
            id={`${id}-phrase`}
            name="phrase"
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
            <input type="radio" name="action" value="hide" checked={action === "hide"} onChange={() => setAction("hide")} /> Hide the echo
          </label>
          <label>
            <input type="radio" name="action" value="warn" checked={action === "warn"} onChange={() => setAction("warn")} /> Show it collapsed, with a warning
          </label>
        </fieldset>
        <fieldset className="radio-list">
          <legend>Where</legend>
          {MUTE_CONTEXTS.map((c) => (
            <label key={c}>
              <input type="checkbox" name="contexts" value={c} checked={contexts.includes(c)} onChange={() => toggle(c)} /> {MUTE_CONTEXT_LABELS[c]}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-duration`}>For how long</label>
          <select id={`${id}-duration`} name="duration" value={duration} onChange={(e) => setDuration(e.target.value as MuteDuration)}>
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
      </fetcher.Form>
      {words.length === 0 ? (
        <p className="muted muted-word-list">You haven&apos;t muted any words.</p>
      ) : (
        <ul className="people-list muted-word-list" aria-label="Your muted words">
          {words.map((w) => (
            <MutedWordRow key={w._id} word={w} onRemoved={removed} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MutedWordRow({ word: w, onRemoved }: { word: MutedWord; onRemoved: (word: MutedWord) => void }) {
  const fetcher = useFetcher<Answer>();
  useFetcherAnswer(fetcher, () => onRemoved(w), (message) => toast.error(message));
  return (
    <li className="person">
      <div className="person-text">
        <bdi className="muted-phrase">{w.phrase}</bdi>
        <p className="person-bio person-bio-full muted">
          {w.action === "hide" ? "Hidden" : "Warned"} in {w.contexts.map((c) => MUTE_CONTEXT_LABELS[c]).join(", ")}
          {w.expiresAt ? ` · until ${moment(w.expiresAt)}` : ""}
        </p>
      </div>
      <button
        type="button"
        className="btn btn-sm"
        aria-label={`Remove ${w.phrase}`}
        disabled={fetcher.state !== "idle"}
        onClick={() => void fetcher.submit({ intent: "unmute-word", wordId: w._id }, { method: "post", action: "/settings" })}
      >
        Remove
      </button>
    </li>
  );
}
