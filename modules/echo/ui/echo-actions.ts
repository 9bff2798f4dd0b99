import { api, toast } from "../../shared/index";
import { setLikeState, type LikeState } from "./echo-store";

/** A like being sent: the state the viewer last asked for, and the server's last answer. */
type Sending = { want: boolean; server: LikeState; done: Promise<void> };
const sending = new Map<string, Sending>();

/**
 * Like or unlike at once (every copy shows the new count and state), then make the server agree.
 * A click while a request is on its way is not lost: it changes what is wanted, and when the
 * answer comes the one sender sends again until the server holds the last wish (like and unlike
 * are idempotent, so it sends the wanted state, not a flip). Every copy then shows the server's
 * numbers; on failure they go back to its last answer and the error is said.
 */
export function toggleLike(id: string, shown: LikeState): Promise<void> {
  setLikeState(id, { likes: Math.max(0, shown.likes + (shown.isLiked ? -1 : 1)), isLiked: !shown.isLiked });
  const queued = sending.get(id);
  if (queued) {
    queued.want = !shown.isLiked;
    return queued.done;
  }
  const entry: Sending = { want: !shown.isLiked, server: shown, done: Promise.resolve() };
  sending.set(id, entry);
  entry.done = sendLike(id, entry);
  return entry.done;
}

async function sendLike(id: string, entry: Sending) {
  try {
    while (entry.server.isLiked !== entry.want) {
      entry.server = await api<LikeState>(`/echo/like/${id}`, { method: entry.want ? "POST" : "DELETE", fallback: "Failed to update like" });
    }
    setLikeState(id, entry.server);
  } catch (error) {
    setLikeState(id, entry.server);
    toast.error((error as Error).message);
  } finally {
    sending.delete(id);
  }
}
