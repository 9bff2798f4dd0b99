// An echo's actions past the like: share, copy its link, delete, report. Loaded on their first
// use (echo-card.tsx imports this file dynamically, the report dialog with itself), so they are not
// part of home's initial JavaScript (decision 009).
import { api, toast } from "../../shared/index";
import type { Echo } from "../schema";
import { markDeleted } from "./echo-store";

export function echoUrl(id: string) {
  return `${window.location.origin}/echo/${id}`;
}

async function countShare(id: string) {
  try {
    await api(`/echo/${id}/share`, { method: "POST", fallback: "Failed to share echo" });
  } catch {
    // counting is best effort: the user's share already happened
  }
}

export async function copyLink(id: string) {
  try {
    await navigator.clipboard.writeText(echoUrl(id));
    toast.success("Link copied");
    void countShare(id);
  } catch {
    toast.error("Could not copy the link");
  }
}

/** Native share where the browser has it, else copy the URL; either way a share is counted. */
export async function shareEcho(echo: Pick<Echo, "_id" | "content">) {
  const url = echoUrl(echo._id);
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: "Echo", text: echo.content.slice(0, 100), url });
      void countShare(echo._id);
    } catch {
      // the user closed the share sheet
    }
    return;
  }
  await copyLink(echo._id);
}

export async function deleteEcho(id: string): Promise<boolean> {
  if (!window.confirm("Are you sure you want to delete this echo?")) return false;
  try {
    await api(`/echo/delete/${id}`, { method: "DELETE", fallback: "Failed to delete echo" });
    markDeleted(id);
    toast.success("Echo deleted successfully");
    return true;
  } catch (error) {
    toast.error((error as Error).message);
    return false;
  }
}

export async function reportEcho(id: string, reason: string): Promise<boolean> {
  try {
    await api(`/echo/${id}/report`, { method: "POST", body: { reason }, fallback: "Failed to report echo" });
    toast.success("Thanks, we received your report");
    return true;
  } catch (error) {
    toast.error((error as Error).message);
    return false;
  }
}

/** Repost or undo (decision 027): the server's count and state, or null when it refused (said). */
export async function setRepost(id: string, on: boolean): Promise<{ reposts: number; isReposted: boolean } | null> {
  try {
    const state = await api<{ reposts: number; isReposted: boolean }>(`/echo/${id}/repost`, { method: on ? "POST" : "DELETE", fallback: "Failed to update repost" });
    toast.success(on ? "Reposted to your followers" : "Repost undone");
    return state;
  } catch (error) {
    toast.error((error as Error).message);
    return null;
  }
}
