// The owner's profile form: bio and e-mail (spec §2). It posts to the profile page's action
// through a fetcher (issue 30: one way to mutate), which answers the saved profile; the page's
// loader then reads the profile again (the framework's revalidation).
import { useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { charCount, clampChars, toast, UNITS_PER_CHAR, useFetcherAnswer } from "../../shared/index";
import { MAX_BIO, type Profile } from "../schema";

export function EditProfile({ profile, onClose, onSaved }: { profile: Profile; onClose: () => void; onSaved: (p: Profile) => void }) {
  const fetcher = useFetcher<{ profile?: Profile; error?: string }>();
  const [bio, setBio] = useState(profile.bio);
  const [email, setEmail] = useState(profile.email ?? "");
  const saving = fetcher.state !== "idle";
  useFetcherAnswer(
    fetcher,
    (answer) => {
      if (answer.profile) onSaved(answer.profile);
      toast.success("Profile updated");
      onClose();
    },
    (message) => toast.error(message || "Failed to update profile"),
  );
  function save(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    fetcher.submit({ intent: "profile", bio, email }, { method: "post" });
  }
  return (
    <fetcher.Form method="post" className="card edit-profile" onSubmit={save} aria-label="Edit Profile">
      <h2>Edit Profile</h2>
      <input type="hidden" name="intent" value="profile" />
      <label className="field">
        <span>Bio</span>
        <textarea name="bio" value={bio} maxLength={MAX_BIO * UNITS_PER_CHAR} rows={3} onChange={(e) => setBio(clampChars(e.target.value, MAX_BIO))} />
        <span className="field-hint">
          {charCount(bio)}/{MAX_BIO}
        </span>
      </label>
      <label className="field">
        <span>Email (optional, shown only to you)</span>
        <input name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
      </label>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? "Saving..." : "Save"}
        </button>
      </div>
    </fetcher.Form>
  );
}
