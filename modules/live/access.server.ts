// Who holds a live socket, and what takes it away ("Sockets follow access", decision 016): the
// headers the upgrade route hands the object, the socket's tags and attachment, and the close
// codes an access change maps to.
import { errorResponse } from "../shared/index";
import { LIVE_CLOSE, type LiveControl } from "../shared/index.server";
import type { LiveFilter } from "./filter";

/** Headers the subscribe request carries from the upgrade route (subscribe.server.ts). */
export const FILTER_HEADER = "X-Live-Filter";
export const RULE_HEADER = "X-Live-Rule";
/** who the socket is for: {@link Holder} without the filter */
export const HOLDER_HEADER = "X-Live-Holder";
/** on a publish: only this viewer's sockets get the echo (an add to a private curation) */
export const VISIBLE_TO_HEADER = "X-Live-Visible-To";

/**
 * What a socket keeps across hibernation (serializeAttachment): its filter, its viewer and
 * session, when the session ends at the latest, and the scroll it watches with its creator.
 */
export type Holder = { viewerId: string; sessionId: string; expiresAt: number; scrollId?: string; creatorId?: string };
export type Attachment = Holder & { filter: LiveFilter };

/** The socket's tags, by which an access change finds the sockets it concerns. */
export const tagOf = {
  viewer: (id: string) => `v:${id}`,
  scroll: (id: string) => `sc:${id}`,
  creator: (id: string) => `c:${id}`,
};

/** Whether `control` takes away the access `holder` was given (the socket must close), and how. */
export function closeCode(control: LiveControl, holder: Holder): number | null {
  if (control.op === "sessions") {
    if (holder.viewerId === control.userId && (control.sessions === null || control.sessions.includes(holder.sessionId))) return LIVE_CLOSE.sessionEnded;
    if (control.deleted && holder.creatorId === control.userId) return LIVE_CLOSE.accessLost;
    return null;
  }
  if (control.op === "count" || holder.scrollId !== control.scrollId) return null;
  return control.visibleTo === holder.viewerId ? null : LIVE_CLOSE.accessLost;
}

/** The answer to a handshake whose access ended on its way: the API's error shape. */
export function refusal(code: number): Response {
  const [status, message] = code === LIVE_CLOSE.sessionEnded ? [401, "Not signed in"] : [403, "This scroll is private"];
  return errorResponse(status, message);
}

export function closeSocket(ws: WebSocket, code: number): void {
  try {
    ws.close(code, code === LIVE_CLOSE.sessionEnded ? "session ended" : "access ended");
  } catch {
    // already closed
  }
}
