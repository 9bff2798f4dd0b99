// Access changes reach the live objects (decision 016, "Sockets follow access"): a socket is
// authorized once, at its handshake, so whatever later takes that access away — a session that
// ends, a scroll made private or deleted, an account deleted — tells the objects holding the
// affected sockets, which close them. Each user has a registry object (`user:<id>`, the same
// Durable Object class as the channels) that knows which channel objects hold sockets opened by
// that user or watching that user's scrolls; a change is one call to it, and it calls those
// channels. Here so that every module (auth, scroll) can say it without depending on modules/live.
import type { AppContext } from "./context.server";

/** The registry object's name for a user. */
export const liveUserChannel = (userId: string) => `user:${userId}`;

/** Close codes a live socket ends with when its access ends: the client does not reconnect. */
export const LIVE_CLOSE = { sessionEnded: 4401, accessLost: 4403 } as const;

/** What a registry tells its channels (the channel objects act on it: hub.server.ts). */
export type LiveControl =
  /** `sessions`: those sessions' sockets; null: every socket of the user; `deleted` also closes
   * the sockets watching the user's scrolls */
  | { op: "sessions"; userId: string; sessions: string[] | null; deleted?: boolean }
  /** a scroll's sockets: those of viewers other than `visibleTo` close (all of them when null) */
  | { op: "scroll"; creatorId: string; scrollId: string; visibleTo: string | null }
  /** nothing changes: the answer counts the user's sockets (the registry prunes its channels) */
  | { op: "count"; userId: string };

/**
 * Tell the user's registry, and wait for it: the caller's answer leaves only once the sockets
 * were told, so a client's next request (say, adding an echo to a curation just made private)
 * cannot overtake the close. A live object that cannot be reached costs the caller nothing but a
 * warning; the sockets then still end at their session's expiry (the objects' alarm).
 */
export async function controlLive(app: Pick<AppContext, "env">, userId: string, control: LiveControl): Promise<void> {
  const live = app.env.LIVE;
  if (!live) return;
  try {
    const res = await live.get(live.idFromName(liveUserChannel(userId))).fetch("https://live/forward", { method: "POST", body: JSON.stringify(control) });
    await res.body?.cancel();
  } catch (error) {
    console.warn("live control failed", error);
  }
}
