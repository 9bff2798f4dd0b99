// The owner's profile form: bio and e-mail (spec §2).
import { useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import { api, charCount, clampChars, toast, UNITS_PER_CHAR } from "../../shared/index";
import { MAX_BIO, type Profile } from "../schema";

export function EditProfile({ profile, onClose, onSaved }: { profile: Profile; onClose: () => void; onSaved: (p: Profile) => void }) {
  const [bio, setBio] = useState(profile.bio);
  const [email, setEmail] = useState(profile.email ?? "");
  const [saving, setSaving] = useState(false);
  const revalidator = useRevalidator();
  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    try {
      const next = await api<Profile>("/profile/me", { method: "PATCH", body: { bio, email }, fallback: "Failed to update profile" });
      onSaved(next);
      toast.success("Profile updated");
      void revalidator.revalidate();
      onClose();
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setSaving(false);
    }
  }
  return (
    <form className="card edit-profile" onSubmit={save} aria-label="Edit Profile">
      <h2>Edit Profile</h2>
      <label className="field">
        <span>Bio</span>
        <textarea value={bio} maxLength={MAX_BIO * UNITS_PER_CHAR} rows={3} onChange={(e) => setBio(clampChars(e.target.value, MAX_BIO))} />
        <span className="field-hint">
          {charCount(bio)}/{MAX_BIO}
        </span>
      </label>
      <label className="field">
        <span>Email (optional, shown only to you)</span>
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
      </label>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? "Saving..." : "Save"}
        </button>
      </div>
    </form>
  );
}
