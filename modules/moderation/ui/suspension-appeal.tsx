// /appeal (decision 029): a suspended account cannot sign in, so it appeals its suspension here,
// once, with its name and password (checked under the login limits) instead of a session.
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, toast } from "../../shared/index";

export function SuspensionAppealForm() {
  const [userName, setUserName] = useState("");
  const [password, setPassword] = useState("");
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      await api("/moderation/appeal-suspension", { method: "POST", body: { userName: userName.trim(), password, text: text.trim() }, fallback: "Failed to send the appeal" });
      setSent(true);
      toast.success("Appeal sent");
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <div className="auth-form">
        <h1>Appeal sent</h1>
        <p>A moderator will read it. If they lift the suspension, you can log in again.</p>
        <p className="auth-switch">
          <Link to="/login">Back to log in</Link>
        </p>
      </div>
    );
  }
  return (
    <form className="auth-form" onSubmit={submit}>
      <h1>Appeal a suspension</h1>
      <p className="field-hint">A suspended account can appeal once. Your name and password show it is yours.</p>
      <div className="field">
        <label htmlFor="appeal-name">Username</label>
        <input id="appeal-name" name="userName" autoComplete="username" required value={userName} onChange={(e) => setUserName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="appeal-password">Password</label>
        <input id="appeal-password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="appeal-text">Your appeal</label>
        <textarea id="appeal-text" name="text" rows={4} maxLength={500} required value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Sending..." : "Send appeal"}
      </button>
      <p className="auth-switch">
        <Link to="/login">Back to log in</Link>
      </p>
    </form>
  );
}
