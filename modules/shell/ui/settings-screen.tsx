import { useEffect, type ReactNode } from "react";
import { useFetcher, useNavigate } from "react-router";
import { toast } from "../../shared/index";
import { useTheme } from "./theme";

type Account = { userName: string; email: string | null; createdAt: string };

const joined = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/**
 * Spec §2 /settings: Dark Mode, Sign Out (confirmed), Account Information; `children` (the auth
 * module's password and delete-account forms) go after the session.
 */
export function SettingsScreen({ account, children }: { account: Account; children?: ReactNode }) {
  const [theme, setTheme] = useTheme();
  const logout = useFetcher<{ ok?: boolean }>();
  const navigate = useNavigate();

  useEffect(() => {
    if (logout.state === "idle" && logout.data?.ok) {
      toast.success("Logged out successfully");
      navigate("/login", { replace: true });
    }
  }, [logout.state, logout.data, navigate]);

  function signOut() {
    if (!window.confirm("Are you sure you want to logout?")) return;
    logout.submit(null, { method: "post", action: "/logout" });
  }

  return (
    <div className="page settings">
      <h1 className="page-title">Settings</h1>
      <section className="card">
        <h2>Appearance</h2>
        <label className="switch-row">
          <span>Dark Mode</span>
          <input
            type="checkbox"
            role="switch"
            aria-label="Dark Mode"
            checked={theme === "dark"}
            onChange={(e) => setTheme(e.target.checked ? "dark" : "light")}
          />
        </label>
      </section>
      <section className="card">
        <h2>Account Information</h2>
        <dl className="account-info">
          <dt>Username</dt>
          <dd>
            <bdi>{account.userName}</bdi>
          </dd>
          <dt>Email</dt>
          <dd>{account.email || "Not set"}</dd>
          <dt>Joined</dt>
          <dd>{joined(account.createdAt)}</dd>
        </dl>
      </section>
      {/* before the password and account deletion (issue 29): signing out is an everyday action,
          not a destructive one; it is in the sidebar too */}
      <section className="card">
        <h2>Session</h2>
        <button type="button" className="btn" onClick={signOut} disabled={logout.state !== "idle"}>
          Sign Out
        </button>
      </section>
      {children}
    </div>
  );
}
