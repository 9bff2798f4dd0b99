import { api, toast } from "../../shared/index";
import type { Scroll } from "../schema";
import { readStoredSelection, storeSelection } from "./selection";

export async function deleteScroll(scroll: Pick<Scroll, "_id" | "name">): Promise<boolean> {
  if (!window.confirm(`Are you sure you want to delete "${scroll.name}"?`)) return false;
  try {
    await api(`/scroll/${scroll._id}`, { method: "DELETE", fallback: "Failed to delete scroll" });
    // deleting the selected scroll clears the selection and the stored id (spec §4)
    if (readStoredSelection() === scroll._id) storeSelection(null);
    toast.success("Scroll deleted successfully");
    return true;
  } catch (error) {
    toast.error((error as Error).message);
    return false;
  }
}

export async function setFollow(scroll: Pick<Scroll, "_id">, follow: boolean): Promise<Scroll | null> {
  try {
    const res = await api<{ scroll: Scroll }>(`/scroll/${scroll._id}/follow`, {
      method: follow ? "POST" : "DELETE",
      fallback: follow ? "Failed to follow scroll" : "Failed to unfollow scroll",
    });
    toast.success(follow ? "Scroll followed!" : "Scroll unfollowed!");
    return res.scroll;
  } catch (error) {
    toast.error((error as Error).message);
    return null;
  }
}

export async function addToScroll(scrollId: string, echoId: string): Promise<boolean> {
  try {
    const res = await api<{ alreadyInScroll: boolean }>(`/scroll/${scrollId}/add-echo`, {
      method: "POST",
      body: { echoId },
      fallback: "Failed to add echo",
    });
    if (res.alreadyInScroll) toast.success("This echo is already in that scroll");
    else toast.success("Echo added to scroll");
    return true;
  } catch (error) {
    toast.error((error as Error).message);
    return false;
  }
}

export async function removeFromScroll(scrollId: string, echoId: string): Promise<boolean> {
  try {
    await api(`/scroll/${scrollId}/remove-echo/${echoId}`, { method: "DELETE", fallback: "Failed to remove echo" });
    toast.success("Echo removed from scroll");
    return true;
  } catch (error) {
    toast.error((error as Error).message);
    return false;
  }
}

/** Fork a public feed (issue 16): the viewer's own copy of its rules, or null after a toast. */
export async function forkScroll(scroll: Pick<Scroll, "_id">): Promise<Scroll | null> {
  try {
    const res = await api<{ scroll: Scroll }>(`/scroll/${scroll._id}/fork`, { method: "POST", fallback: "Failed to fork scroll" });
    toast.success("Feed forked: make it yours");
    return res.scroll;
  } catch (error) {
    toast.error((error as Error).message);
    return null;
  }
}
