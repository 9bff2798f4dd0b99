// Settings → Password and Delete account (issue 12): each re-asks for the password, shows every
// error under the field it belongs to, and delete is confirmed first.
import { useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import * as v from "valibot";
import { api, ApiError, toast } from "../../shared/index";
import { ACCOUNT_MESSAGES, MESSAGES, PasswordSchema } from "../schema";

type Errors<K extends string> = Partial<Record<K | "form", string>>;

/** One labelled password input with its error (announced) and an optional hint below it. */
function PasswordField(props: {
  label: string;
  name: string;
  autoComplete: "current-password" | "new-password";
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
}) {
  const id = useId();
  const describedBy = [props.error ? `${id}-error` : "", props.hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>
        <span>{props.label}</span>
      </label>
      <input
        id={id}
        name={props.name}
        type="password"
        autoComplete={props.autoComplete}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={Boolean(props.error)}
        aria-describedby={describedBy || undefined}
      />
      {props.error && (
        <span className="field-error" id={`${id}-error`} role="alert">
          {props.error}
        </span>
      )}
      {props.hint && (
        <span className="field-hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      )}
    </div>
  );
}

const requiredOr = (value: string, message: string) => (value ? undefined : message);
const newPasswordError = (value: string) => {
  const result = v.safeParse(PasswordSchema, value);
  return result.success ? undefined : result.issues[0]?.message;
};

/** A server error, placed under the field it is about (else under the form). */
function placeError<K extends string>(error: unknown, fieldOf: (message: string) => K | "form"): Errors<K> {
  const message = error instanceof ApiError ? error.message : "Something went wrong. Please try again.";
  return { [fieldOf(message)]: message } as Errors<K>;
}

function FormError({ message }: { message?: string }) {
  return message ? (
    <p className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}

export function ChangePasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [errors, setErrors] = useState<Errors<"current" | "next">>({});
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = {
      current: requiredOr(current, ACCOUNT_MESSAGES.currentPasswordRequired),
      next: newPasswordError(next) ?? (next === current ? ACCOUNT_MESSAGES.passwordSame : undefined),
    };
    setErrors(found);
    if (found.current || found.next) return;
    setBusy(true);
    try {
      await api("/auth/password", { method: "POST", body: { currentPassword: current, newPassword: next }, fallback: "Could not change your password" });
      setCurrent("");
      setNext("");
      toast.success(ACCOUNT_MESSAGES.passwordChanged);
    } catch (error) {
      setErrors(placeError(error, (m) => (m.startsWith("Current password") ? "current" : m.startsWith("Password") ? "next" : "form")));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="change-password-title">
      <h2 id="change-password-title">Change Password</h2>
      <form onSubmit={onSubmit} noValidate>
        <PasswordField label="Current password" name="currentPassword" autoComplete="current-password" value={current} onChange={setCurrent} error={errors.current} />
        <PasswordField label="New password" name="newPassword" autoComplete="new-password" value={next} onChange={setNext} error={errors.next} hint={MESSAGES.passwordHint} />
        <p className="field-hint">Your other devices will be signed out.</p>
        <FormError message={errors.form} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Changing..." : "Change Password"}
        </button>
      </form>
    </section>
  );
}

const DELETE_CONFIRMATION =
  "Delete your account? Your echos, scrolls, likes and follows will be removed for good. This cannot be undone.";

export function DeleteAccountForm() {
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors<"password">>({});
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = { password: requiredOr(password, MESSAGES.passwordRequired) };
    setErrors(found);
    if (found.password || !window.confirm(DELETE_CONFIRMATION)) return;
    setBusy(true);
    try {
      await api("/profile/me", { method: "DELETE", body: { password }, fallback: "Could not delete your account" });
      toast.success(ACCOUNT_MESSAGES.accountDeleted);
      navigate("/login", { replace: true });
    } catch (error) {
      setErrors(placeError(error, (m) => (m.startsWith("Password") ? "password" : "form")));
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete Account</h2>
      <p>Deleting your account removes your echos, scrolls, likes and follows for good.</p>
      <form onSubmit={onSubmit} noValidate>
        <PasswordField label="Password" name="password" autoComplete="current-password" value={password} onChange={setPassword} error={errors.password} />
        <FormError message={errors.form} />
        <button type="submit" className="btn btn-danger" disabled={busy}>
          {busy ? "Deleting..." : "Delete Account"}
        </button>
      </form>
    </section>
  );
}
