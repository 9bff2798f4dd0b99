import { useSyncExternalStore } from "react";
import type { Echo } from "../schema";

// Like state shared by every copy of an echo on the page (spec §4: the returned likes and
// isLiked update every copy). Deleted ids hide every copy too.
export type LikeState = { likes: number; isLiked: boolean };

const likeState = new Map<string, LikeState>();
const deleted = new Set<string>();
// an echo as its author's edit left it (decision 025): every copy on the page shows the new version
const edited = new Map<string, Echo>();
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

export function markDeleted(id: string) {
  deleted.add(id);
  emit();
}

export function markEdited(echo: Echo) {
  edited.set(echo._id, echo);
  emit();
}

function subscribe(cb: () => void) {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** Re-render when any echo's shared state changes. */
export function useEchoStore() {
  useSyncExternalStore(subscribe, () => version, () => 0);
  return { likeOf: (id: string) => likeState.get(id), isDeleted: (id: string) => deleted.has(id), editOf: (id: string) => edited.get(id) };
}
