import { useSyncExternalStore } from "react";
import type { Echo } from "../schema";

// Like state shared by every copy of an echo on the page (spec §4: the returned likes and
// isLiked update every copy). Deleted ids hide every copy too.
export type LikeState = { likes: number; isLiked: boolean };

const likeState = new Map<string, LikeState>();
const deleted = new Set<string>();
// what an edit changed (decision 025): the author's own, or one that came live. Every copy on the
// page shows the new version — a patch, so each copy keeps its own repost line and like state. A
// live edit carries the reader's muted-word verdict on the new text (decision 016): a warn word
// collapses every copy, none lifts an earlier one
export type EchoEdit = Pick<Echo, "_id" | "content" | "tags" | "editedAt" | "warning" | "mutedWord">;
const edited = new Map<string, EchoEdit>();
const listeners = new Set<() => void>();
let version = 0;

function emit() {
  version++;
  for (const l of listeners) l();
}

export function setLikeState(id: string, state: LikeState) {
  likeState.set(id, state);
  emit();
}

/** `id`: an echo's, or a deleted account's (every echo of theirs goes: isDeleted tests both ids) */
export function markDeleted(id: string) {
  deleted.add(id);
  emit();
}

export function markEdited(edit: EchoEdit) {
  // messages may arrive out of order: the newest version stays. Each caller gives exactly the
  // patch's fields, "warning" and "mutedWord" set even when none (edit-dialog.tsx, live-socket.ts)
  if ((edited.get(edit._id)?.editedAt ?? "") > (edit.editedAt ?? "")) return;
  edited.set(edit._id, edit);
  emit();
}

/** The echo as the newest edit known on the page left it (a copy read later may be newer). */
function withEdit(echo: Echo): Echo {
  const edit = edited.get(echo._id);
  return edit && (edit.editedAt ?? "") >= (echo.editedAt ?? "") ? { ...echo, ...edit } : echo;
}

function subscribe(cb: () => void) {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** Re-render when any echo's shared state changes. */
export function useEchoStore() {
  useSyncExternalStore(subscribe, () => version, () => 0);
  return { likeOf: (id: string) => likeState.get(id), isDeleted: (e: { _id: string; author: { _id: string } }) => deleted.has(e._id) || deleted.has(e.author._id), editOf: withEdit };
}
