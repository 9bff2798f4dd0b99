import { useEffect, useState, type FormEvent } from "react";
import { Link, useFetcher, useNavigate, useSearchParams } from "react-router";
import { authPathFor, RETURN_PARAM, safeReturnPath, toast } from "../../shared/index";
import * as v from "valibot";
import { LoginNameSchema, MESSAGES, PasswordSchema, UserNameSchema } from "../schema";
import { AuthField } from "./auth-field";

type Mode = "login" | "signup";
type ActionData = { user?: { userName: string }; error?: string };
type FieldErrors = { userName?: string; password?: string; form?: string };

const COPY = {
  login: { title: "Welcome back", submit: "Log in", busy: "Logging in...", done: "Logged in successfully" },
  signup: { title: "Create your account", submit: "Sign up", busy: "Signing up...", done: "Account Created" },
} as const;

function fieldError(schema: v.GenericSchema, value: string): string | undefined {
  const result = v.safeParse(schema, value);
  return result.success ? undefined : result.issues[0]?.message;
}

/**
 * Sign-up and login (spec §5): each validation message shows under its field, checked with the
 * schema the server uses. Sign-up shows the name rules and password hint up front (the spec's
 * "silently blocked" left new users guessing: issue 12) and a taken name under the name field;
 * other server errors toast.
 */
export function AuthForm({ mode }: { mode: Mode }) {
  const fetcher = useFetcher<ActionData>();
  const navigate = useNavigate();
  const [userName, setUserName] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const busy = fetcher.state !== "idle";
  const copy = COPY[mode];
  const signup = mode === "signup";
  // the page a guest was sent here from (a shared link): back there once signed in (issue 29)
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get(RETURN_PARAM));

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.user) {
      toast.success(copy.done);
      navigate(returnTo ?? "/", { replace: true });
    } else if (fetcher.data.error === MESSAGES.userNameTaken) {
      setErrors({ userName: fetcher.data.error });
    } else if (fetcher.data.error) {
      // said in the form too, and focus stays in it (issue 29: a wrong password left only a
      // vanishing toast, and focus on <body>): the password is selected to be typed again
      setErrors({ form: fetcher.data.error });
      toast.error(fetcher.data.error);
      const password = document.querySelector<HTMLInputElement>('.auth-form input[name="password"]');
      password?.focus();
      password?.select();
    }
  }, [fetcher.state, fetcher.data, copy.done, navigate, returnTo]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const next = {
      userName: fieldError(signup ? UserNameSchema : LoginNameSchema, userName),
      password: fieldError(PasswordSchema, password),
    };
    setErrors(next);
    if (next.userName || next.password) return;
    fetcher.submit({ userName: userName.trim(), password }, { method: "post" });
  }

  return (
    <fetcher.Form method="post" className="auth-form" onSubmit={onSubmit} noValidate>
      <h1>{copy.title}</h1>
      <AuthField
        label="Username"
        name="userName"
        autoComplete="username"
        value={userName}
        onChange={setUserName}
        error={errors.userName}
        hint={signup ? MESSAGES.userNameRules : undefined}
      />
      <AuthField
        label="Password"
        name="password"
        type="password"
        autoComplete={signup ? "new-password" : "current-password"}
        value={password}
        onChange={setPassword}
        error={errors.password}
        hint={signup ? MESSAGES.passwordHint : undefined}
      />
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? copy.busy : copy.submit}
      </button>
      <p className="auth-switch">
        {signup ? (
          <>
            Already have an account? <Link to={authPathFor("/login", returnTo)}>Log in</Link>
          </>
        ) : (
          <>
            Don't have an account? <Link to={authPathFor("/signup", returnTo)}>Sign up</Link>
          </>
        )}
      </p>
    </fetcher.Form>
  );
}
