// Follow / unfollow a person (spec §2): the profile's button and each person found by search
// (people-list.tsx) toggle the same way, with the same messages.
import { useState } from "react";
import { api, toast } from "../../shared/index";
import type { Profile } from "../schema";

/**
 * Toggles whether the viewer follows `userId` (`following`: the state the button shows), hands
 * the answer's profile (counts included) to `onChange`; a failure is a toast and changes nothing.
 */
export function useFollowToggle(userId: string, following: boolean, onChange: (next: Profile) => void) {
  const [working, setWorking] = useState(false);
  async function toggle() {
    setWorking(true);
    try {
      const next = await api<Profile>(`/profile/user/${userId}/follow`, {
        method: following ? "DELETE" : "POST",
        fallback: following ? "Failed to unfollow user" : "Failed to follow user",
      });
      onChange(next);
      toast.success(next.isFollowing ? `Following @${next.userName}` : `Unfollowed @${next.userName}`);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setWorking(false);
    }
  }
  return { working, toggle };
}
