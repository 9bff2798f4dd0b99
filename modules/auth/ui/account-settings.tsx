// Settings → Password and Delete account (issue 12): each re-asks for the password, shows every
// error under the field it belongs to, and delete is confirmed first. Both post to the settings
// page's action through a fetcher (issue 30: one way to mutate): the pending state is the
// fetcher's, the answer `{ done }` or `{ error }`.
import { useId, useState, type FormEvent } from "react";
import { useFetcher, useNavigate } from "react-router";
import * as v from "valibot";
import { toast, useFetcherAnswer } from "../../shared/index";
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

/** What the settings page's action answers (routes/pages/settings.tsx). */
type ActionData = { done?: "password" | "delete"; error?: string };

/** A server error, placed under the field it is about (else under the form). */
const placeError = <K extends string>(message: string, fieldOf: (message: string) => K | "form"): Errors<K> =>
  ({ [fieldOf(message)]: message }) as Errors<K>;

function FormError({ message }: { message?: string }) {
  return message ? (
    <p className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}

export function ChangePasswordForm() {
  const fetcher = useFetcher<ActionData>();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [errors, setErrors] = useState<Errors<"current" | "next">>({});
  const busy = fetcher.state !== "idle";
  useFetcherAnswer(
    fetcher,
    () => {
      setCurrent("");
      setNext("");
      toast.success(ACCOUNT_MESSAGES.passwordChanged);
    },
    (message) => setErrors(placeError(message, (m) => (m.startsWith("Current password") ? "current" : m.startsWith("Password") ? "next" : "form"))),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = {
      current: requiredOr(current, ACCOUNT_MESSAGES.currentPasswordRequired),
      next: newPasswordError(next) ?? (next === current ? ACCOUNT_MESSAGES.passwordSame : undefined),
    };
    setErrors(found);
    if (found.current || found.next) return;
    fetcher.submit({ intent: "password", currentPassword: current, newPassword: next }, { method: "post", action: "/settings" });
  }

  return (
    <section className="card" aria-labelledby="change-password-title">
      <h2 id="change-password-title">Change Password</h2>
      <fetcher.Form method="post" action="/settings" onSubmit={onSubmit} noValidate>
        <input type="hidden" name="intent" value="password" />
        <PasswordField label="Current password" name="currentPassword" autoComplete="current-password" value={current} onChange={setCurrent} error={errors.current} />
        <PasswordField label="New password" name="newPassword" autoComplete="new-password" value={next} onChange={setNext} error={errors.next} hint={MESSAGES.passwordHint} />
        <p className="field-hint">Your other devices will be signed out.</p>
        <FormError message={errors.form} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Changing..." : "Change Password"}
        </button>
      </fetcher.Form>
    </section>
  );
}

const DELETE_CONFIRMATION =
  "Delete your account? Your echos, scrolls, likes and follows will be removed for good. This cannot be undone.";

export function DeleteAccountForm() {
  const fetcher = useFetcher<ActionData>();
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors<"password">>({});
  const busy = fetcher.state !== "idle";
  const navigate = useNavigate();
  useFetcherAnswer(
    fetcher,
    () => {
      toast.success(ACCOUNT_MESSAGES.accountDeleted);
      navigate("/login", { replace: true });
    },
    (message) => setErrors(placeError(message, (m) => (m.startsWith("Password") ? "password" : "form"))),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = { password: requiredOr(password, MESSAGES.passwordRequired) };
    setErrors(found);
    if (found.password || !window.confirm(DELETE_CONFIRMATION)) return;
    fetcher.submit({ intent: "delete", password }, { method: "post", action: "/settings" });
  }

  return (
    <section className="card" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete Account</h2>
      <p>Deleting your account removes your echos, scrolls, likes and follows for good.</p>
      <fetcher.Form method="post" action="/settings" onSubmit={onSubmit} noValidate>
        <input type="hidden" name="intent" value="delete" />
        <PasswordField label="Password" name="password" autoComplete="current-password" value={password} onChange={setPassword} error={errors.password} />
        <FormError message={errors.form} />
        <button type="submit" className="btn btn-danger" disabled={busy}>
          {busy ? "Deleting..." : "Delete Account"}
        </button>
      </fetcher.Form>
    </section>
  );
}
