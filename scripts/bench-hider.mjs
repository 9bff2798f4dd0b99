// The heavy hider of `npm run bench:feeds` (FEEDS_HIDER=1; issue 32, decision 026's bench viewer,
// measured over a whole generated store): a reader who blocks 1,000 accounts, mutes one, is
// blocked by one and mutes 100 words. So that it bites, the blocked are taken among the store's
// most prolific authors — every HIDER_STRIDE-th (default 2) of them by echo count, so half of the
// 2,000 most prolific — the muted and the blocker are the two most prolific left, and the muted
// words are HIDER_COMMON_WORDS (default 2) words of the bench's text vocabulary (each in ~12 % of
// echos) and 100 − that many words no echo holds (each candidate is still tested against all 100).
// Everything is written through the API as a user would (blocks, the mute, the blocker's block,
// the words), once per store: a store whose hider already blocks 1,000 is reused as it is.
//
// `pickHider(db)` runs before the server starts (it reads the store's SQLite file) and names the
// users whose sessions the bench writes; `setUpHider(...)` runs against the server.
import { fillMuteText } from "./mute-text.mjs";

export const HIDER_BLOCKS = 1_000;
const STRIDE = Number(process.env.HIDER_STRIDE || "2");
const COMMON = Number(process.env.HIDER_COMMON_WORDS || "2");
// (HIDER_INDEX=n: the n-th such user instead, so that a store holds hiders of other settings side by side)
// words of scripts/bench-data.mjs's vocabulary: each echo holds 6–29 of its ~130 words, uniformly
const COMMON_WORDS = ["coffee", "river", "garden", "music", "train"];

/** A store built before bench-data wrote `mute_text` holds none, and no muted word would bite. */
function fillOlderStore(db) {
  const t = Date.now();
  const changes = fillMuteText(db);
  if (changes > 0) console.log(`  mute_text filled for ${changes} echos (${((Date.now() - t) / 1000).toFixed(0)} s)`);
}

/** The hider (a store user with no echo, no feed and no follower of note), whom it blocks, mutes and is blocked by. */
export function pickHider(db) {
  fillOlderStore(db);
  const hider = db
    .prepare(
      // (or one that is already a hider: bench-hider-lists.mjs's LISTS_ACTIVITY gives it echos)
      `SELECT u.id, u.user_name FROM users u WHERE (u.echos_count = 0 OR EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = u.id))
         AND u.user_name NOT LIKE 'bench1_' AND u.user_name NOT LIKE 'bench2_'
         AND NOT EXISTS (SELECT 1 FROM scrolls s WHERE s.creator_id = u.id) ORDER BY u.id LIMIT 1 OFFSET ?`,
    )
    .get(Number(process.env.HIDER_INDEX || "0")) ?? db.prepare("SELECT id, user_name FROM users ORDER BY echos_count, id LIMIT 1").get();
  const prolific = db.prepare("SELECT id FROM users WHERE id <> ? ORDER BY echos_count DESC, id LIMIT ?").all(hider.id, HIDER_BLOCKS * STRIDE + 2).map((r) => r.id);
  const blocked = prolific.filter((_, i) => i % STRIDE === 0).slice(0, HIDER_BLOCKS);
  const left = prolific.filter((id) => !blocked.includes(id));
  const already = db.prepare("SELECT count(*) AS n FROM blocks WHERE blocker_id = ?").get(hider.id).n;
  const words = [...COMMON_WORDS.slice(0, COMMON), ...Array.from({ length: 100 - COMMON }, (_, i) => `zqhider${i}`)];
  const plan = { hider, blocked, muted: left[0], blocker: left[1], words, ready: already >= blocked.length };
  if (plan.ready) {
    // a hider already set up keeps whom it hides (echo counts, and so the most prolific, may have
    // moved since: bench-hider-lists.mjs's LISTS_ACTIVITY posts)
    plan.blocked = db.prepare("SELECT blocked_id AS id FROM blocks WHERE blocker_id = ?").all(hider.id).map((r) => r.id);
    plan.muted = db.prepare("SELECT muted_id AS id FROM mutes WHERE muter_id = ?").get(hider.id)?.id ?? plan.muted;
    plan.blocker = db.prepare("SELECT blocker_id AS id FROM blocks WHERE blocked_id = ?").get(hider.id)?.id ?? plan.blocker;
  }
  // what share of the newest 5,000 top-level echos the hider does not see (by author, by a word)
  const newest = db.prepare("SELECT author_id, content FROM echos WHERE parent_id IS NULL ORDER BY id DESC LIMIT 5000").all();
  const hidden = hiddenAuthors(plan);
  const byAuthor = newest.filter((e) => hidden.has(e.author_id)).length;
  const either = newest.filter((e) => hidden.has(e.author_id) || wordsOf(plan).some((w) => w.test(e.content))).length;
  plan.share = { sample: newest.length, byAuthor: byAuthor / newest.length, hidden: either / newest.length };
  return plan;
}

const hiddenAuthors = (plan) => new Set([...plan.blocked, plan.muted, plan.blocker]);
const wordsOf = (plan) => plan.words.map((w) => new RegExp(`\\b${w}\\b`, "i"));

/** The hider's blocks, mute, blocker and words, through the API (`send(userId, method, path, body)` → status). */
export async function setUpHider(plan, send) {
  if (plan.ready) return;
  const must = async (who, method, p, body) => {
    const status = await send(who, method, p, body);
    if (status !== 200) throw new Error(`hider set-up: ${method} ${p}: ${status}`);
  };
  for (let i = 0; i < plan.blocked.length; i += 8) {
    await Promise.all(plan.blocked.slice(i, i + 8).map((id) => must(plan.hider.id, "POST", `/api/profile/user/${id}/block`)));
  }
  await must(plan.hider.id, "POST", `/api/profile/user/${plan.muted}/mute`, { duration: "forever" });
  await must(plan.blocker, "POST", `/api/profile/user/${plan.hider.id}/block`);
  for (const phrase of plan.words) {
    await must(plan.hider.id, "POST", "/api/profile/me/muted-words", { phrase, action: "hide", contexts: ["home", "feeds", "tags", "search", "notifications"], duration: "forever" });
  }
}

/** What the hider must not see on a page: an echo by a hidden author, or holding a muted word. */
export function leaks(plan, echos) {
  const hidden = hiddenAuthors(plan);
  const words = wordsOf(plan);
  return echos.filter((e) => hidden.has(e.author?._id) || words.some((w) => w.test(e.content ?? ""))).length;
}
