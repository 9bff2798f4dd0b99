export { badRequest, decodeCursor, encodeCursor, idCeil, idFloor, pagination } from "../shared/index";
import { normalizeTag } from "./schema";

/** A tag from a URL or query: normalised; anything unsafe simply matches nothing. */
export function normalizeTagSafe(raw: string): string {
  return normalizeTag(raw).slice(0, 100);
}
