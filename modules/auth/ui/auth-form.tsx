import { useEffect, useState, type FormEvent } from "react";
import { Link, useFetcher, useNavigate } from "react-router";
import { toast } from "../../shared/index";
import * as v from "valibot";
import { MESSAGES, PasswordSchema, UserNameSchema } from "../schema";

type Mode = "login" | "signup";
type ActionData = { user?: { userName: string }; error?: string };

const COPY = {
  login: { title: "Welcome back", submit: "Log in", busy: "Logging in...", done: "Logged in successfully" },
  signup: { title: "Create your account", submit: "Sign up", busy: "Signing up...", done: "Account Created" },
} as const;

function fieldError(schema: v.GenericSchema, value: string): string | undefined {
  const result = v.safeParse(schema, value);
  return result.success ? undefined : result.issues[0]?.message;
}

/**
 * Sign-up and login (spec §5): login shows each validation message under its field; sign-up
 * silently blocks an invalid submission and shows the password hint. Server errors toast.
 */
export function AuthForm({ mode }: { mode: Mode }) {
  const fetcher = useFetcher<ActionData>();
  const navigate = useNavigate();
  const [userName, setUserName] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ userName?: string; password?: string }>({});
  const busy = fetcher.state !== "idle";
  const copy = COPY[mode];

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.user) {
      toast.success(copy.done);
      navigate("/", { replace: true });
    } else if (fetcher.data.error) {
      toast.error(fetcher.data.error);
    }
  }, [fetcher.state, fetcher.data, copy.done, navigate]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const next = {
      userName: fieldError(UserNameSchema, userName),
      password: fieldError(PasswordSchema, password),
    };
    if (mode === "login") setErrors(next);
    if (next.userName || next.password) return;
    fetcher.submit({ userName: userName.trim(), password }, { method: "post" });
  }

  return (
    <fetcher.Form method="post" className="auth-form" onSubmit={onSubmit} noValidate>
      <h1>{copy.title}</h1>
      <label className="field">
        <span>Username</span>
        <input
          name="userName"
          autoComplete="username"
          value={userName}
          onChange={(e) => setUserName(e.target.value)}
          aria-invalid={Boolean(errors.userName)}
        />
        {errors.userName && (
          <span className="field-error" role="alert">
            {errors.userName}
          </span>
        )}
      </label>
      <label className="field">
        <span>Password</span>
        <input
          name="password"
          type="password"
          autoComplete={mode === "login" ? "current-password" : "new-password"}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={Boolean(errors.password)}
        />
        {errors.password && (
          <span className="field-error" role="alert">
            {errors.password}
          </span>
        )}
        {mode === "signup" && <span className="field-hint">{MESSAGES.passwordHint}</span>}
      </label>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? copy.busy : copy.submit}
      </button>
      <p className="auth-switch">
        {mode === "login" ? (
          <>
            Don't have an account? <Link to="/signup">Sign up</Link>
          </>
        ) : (
          <>
            Already have an account? <Link to="/login">Log in</Link>
          </>
        )}
      </p>
    </fetcher.Form>
  );
}
