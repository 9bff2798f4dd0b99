import { describe, expect, it } from "vitest";
import type { Echo, Thread, ThreadItem } from "../schema";
import { threadChanges } from "./thread-live";

const echo = (id: string, parentId: string | null, extra: Partial<Echo> = {}) => ({ _id: id, parentId, commentsCount: 0, content: id, tags: [], ...extra }) as unknown as Echo;
const item = (id: string, parentId: string | null, extra: Partial<Echo> = {}): ThreadItem => ({ _id: id, parentId, echo: echo(id, parentId, extra) });
const reply = (id: string, nested: ThreadItem[] = [], moreReplies = false, extra: Partial<Echo> = {}) => ({ ...item(id, "e", extra), replies: nested, moreReplies });
const thread = (replies: Thread["replies"], hasMore = false): Thread => ({
  echo: item("e", "a", { commentsCount: replies.length }),
  ancestors: [item("a", null, { commentsCount: 1 })],
  earlierId: null,
  replies,
  pagination: { limit: 10, hasMore, nextCursor: null },
});

describe("threadChanges (a thread reread after its socket was down)", () => {
  const held = new Map<string, string[]>([["e", ["r1", "r3"]], ["r1", ["n1", "n2"]]]);
  const holds = (id: string) => ["a", "e", "r1", "r3", "n1", "n2"].includes(id);
  const under = (parentId: string) => held.get(parentId) ?? [];

  it("finds the new replies, the edits, the deleted places and every shown echo's count", () => {
    const fresh = thread([
      reply("r1", [item("n1", "r1", { editedAt: "t1", content: "n1 edited" })], false, { commentsCount: 1 }),
      { _id: "r3", parentId: "e", echo: null, replies: [], moreReplies: false },
      reply("r5"),
    ]);
    const changes = threadChanges(fresh, holds, under);
    expect(changes.replies.map((e) => e._id)).toEqual(["r5"]);
    expect(changes.edits).toEqual([{ _id: "n1", content: "n1 edited", tags: [], editedAt: "t1", warning: undefined, mutedWord: undefined }]);
    // r3 kept its place (it has replies); n2 left no place: r1's list was read to its end
    expect(changes.gone).toEqual([{ id: "n2", parentId: "r1" }, { id: "r3", parentId: "e" }]);
    expect([...changes.counts]).toEqual([["a", 1], ["e", 3], ["r1", 1], ["n1", 0], ["r5", 0]]);
  });

  it("judges a missing reply only where the read reached: not past a page's end, and an older one moved in is no news", () => {
    // r1's nested list goes on ("More replies") after n1: n2 may simply be past it
    const fresh = thread([reply("r0"), reply("r1", [item("n1", "r1")], true)], true);
    const changes = threadChanges(fresh, holds, under);
    // r3 is newer than the page's last read reply (r1), r0 older than every reply held
    expect(changes.gone).toEqual([]);
    expect(changes.replies).toEqual([]);
  });

  it("reports a deleted quote and leaves hidden places alone", () => {
    const fresh = thread([reply("r1", [item("n1", "r1"), item("n2", "r1")], false, { quoted: { _id: "q", state: "deleted" } }), { _id: "r3", parentId: "e", echo: null, hidden: true, replies: [], moreReplies: false }]);
    expect(threadChanges(fresh, holds, under).gone).toEqual([{ id: "q", parentId: null }]);
  });
});
