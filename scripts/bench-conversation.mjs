// The conversation part of `npm run bench` (issue 31's done-when, decisions 024 and 027): thread
// pages, replies, quotes, reposts and edits over the bench store's population, each request's D1
// round trips and rows read (Server-Timing) and its time. `BENCH_ONLY=conversation npm run bench`
// runs this part alone (no throughput scenarios); any other BENCH_ONLY runs it too.
//
// Drawn from the store before the server starts (drawConversation), measured through the
// production build (measureThreads, measureConversation), judged and printed with the rest of the
// report (conversationBudgets, printConversation).

/** Echos each conversation action is measured on (a reply, quote, repost and undo each). */
const SAMPLE = Number(process.env.BENCH_CONVERSATION_SAMPLE || "50");

/**
 * The population, from the store's SQLite (read-only): 200 random replies and 200 random echos
 * with replies (read as threads); SAMPLE echos with more than 10 replies (walked by cursor);
 * SAMPLE random echos and the most reposted one (written on); edits by their authors on the
 * echos with the most tags, the most liked and random ones; the most followed account's name.
 * Null when the store has no threads (a store built before issue 31).
 */
export function drawConversation(store) {
  const has = (q) => store.prepare(q).get().n > 0;
  if (!has("SELECT count(*) AS n FROM pragma_table_info('echos') WHERE name = 'parent_id'")) return null;
  const ids = (q) => store.prepare(q).all().map((r) => r.id);
  const threadSample = [
    ...ids("SELECT id FROM echos WHERE parent_id IS NOT NULL ORDER BY random() LIMIT 200"),
    ...ids("SELECT id FROM echos WHERE comments_count > 0 ORDER BY random() LIMIT 200"),
  ];
  const deep = ids(`SELECT id FROM echos WHERE comments_count > 10 ORDER BY random() LIMIT ${SAMPLE}`);
  const targets = ids(`SELECT id FROM echos ORDER BY random() LIMIT ${SAMPLE}`);
  if (has("SELECT count(*) AS n FROM sqlite_master WHERE name = 'reposts'")) {
    targets.push(...ids("SELECT echo_id AS id FROM reposts GROUP BY echo_id ORDER BY count(*) DESC LIMIT 1"));
  }
  // an edit is its author's: echos with the most tags (the most links to rewrite), the most
  // liked ones (a like count copied to each new link) and random ones, with their authors' names
  const perOrder = Math.max(1, Math.round(SAMPLE / 5));
  const editable = (order) =>
    store.prepare(`SELECT e.id, u.user_name AS name FROM echos e JOIN users u ON u.id = e.author_id ORDER BY ${order} LIMIT ${perOrder}`).all();
  const edits = [...editable("json_array_length(e.tags) DESC, random()"), ...editable("e.likes_count DESC"), ...editable("random()")];
  // the most followed account writes too: its reply, quote or repost fans out to the most timelines
  const famous = store.prepare("SELECT user_name AS name FROM users ORDER BY followers_count DESC LIMIT 1").get()?.name ?? null;
  return { threadSample, deep, targets, edits, famous };
}

const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? null;

/** The largest D1 cost of a kind of request, and its times (ms, client side, sequential). */
export function summarize(rs) {
  const ms = rs.map((r) => r.ms).sort((a, b) => a - b);
  const rows = rs.map((r) => r.rows ?? 9999).sort((a, b) => a - b);
  return {
    n: rs.length,
    failed: rs.filter((r) => r.status >= 400).length,
    maxRoundTrips: Math.max(...rs.map((r) => r.rt ?? 99)),
    maxRows: rows[rows.length - 1] ?? null,
    p50Rows: quantile(rows, 0.5),
    p50Ms: Math.round(quantile(ms, 0.5) ?? 0),
    p99Ms: Math.round(quantile(ms, 0.99) ?? 0),
  };
}

/** Every page of a thread by cursor (at most `max`). */
async function walk(probe, cookie, id, max) {
  const pages = [];
  let cursor = null;
  do {
    const r = await probe(cookie, `/api/echo/${id}/thread${cursor ? `?cursor=${cursor}` : ""}`);
    pages.push(r);
    cursor = r.json?.pagination?.nextCursor ?? null;
  } while (cursor && pages.length < max);
  return pages;
}

/**
 * Threads (decision 024): the conversation of 5,000 replies walked to its end by cursor, each
 * chain's tail and root, the echo page, a reply (then deleted) as single actions, and the 400
 * random threads drawn: the largest page read and its round trips.
 */
export async function measureThreads({ probe, action, me, meta, drawn }) {
  const T = meta.threads;
  const big = await walk(probe, me.cookie, T.big.id, 1000);
  const chains = [];
  for (const chain of T.chains) chains.push(await probe(me.cookie, `/api/echo/${chain.tail}/thread`), await probe(me.cookie, `/api/echo/${chain.root}/thread`));
  const random = [];
  for (const id of drawn.threadSample) random.push(await probe(me.cookie, `/api/echo/${id}/thread`));
  const all = [...big, ...chains, ...random];
  const threads = {
    bigPages: big.length,
    bigReplies: big.reduce((n, r) => n + (r.json?.replies?.length ?? 0), 0),
    reads: all.length,
    failed: all.filter((r) => r.status !== 200).length,
    maxRows: Math.max(...all.map((r) => r.rows ?? 999)),
    maxRoundTrips: Math.max(...all.map((r) => r.rt ?? 99)),
    parts: { [`the ${T.big.replies}, every page`]: summarize(big), "chains' tails and roots": summarize(chains), "random threads": summarize(random) },
  };
  await action(`GET /echo/:id (thread of ${T.big.replies} replies)`, `/echo/${T.big.id}`, "GET");
  await action(`GET thread of ${T.big.replies} replies, page 1`, `/api/echo/${T.big.id}/thread`, "GET");
  await action(`GET thread of a chain's tail (${T.chains[0]?.depth} deep)`, `/api/echo/${T.chains[0]?.tail}/thread`, "GET");
  const replied = await action(`reply to the echo with ${T.big.replies} replies`, `/api/echo/${T.big.id}/reply`, "POST", { content: "bench reply", tags: [] });
  const replyId = replied.json?._id ?? replied.json?.echo?._id;
  if (replyId) await action("delete a reply", `/api/echo/delete/${replyId}`, "DELETE");
  return threads;
}

/**
 * The conversation over the population: threads with more than 10 replies walked to their end
 * by cursor (at most 100 pages each; the 5,000's whole walk is measureThreads'); on the drawn
 * echos (and the most reposted one, the conversation of 5,000 and the chains' tails) a reply, a
 * quote, a repost and its undo, by a writer in turn and every fifth by the most followed account
 * (the widest fan-out; its post limit is 100 per 5 minutes); the drawn edits by their authors,
 * swapping every tag and adding a warning. Replies and quotes are deleted after, reposts undone.
 */
export async function measureConversation({ probe, login, me, writers, meta, drawn }) {
  const T = meta.threads;
  const first = [];
  const deeper = [];
  for (const id of drawn.deep) {
    const [head, ...rest] = await walk(probe, me.cookie, id, 100);
    first.push(head);
    deeper.push(...rest);
  }
  const targets = [...drawn.targets, T.big.id, ...T.chains.map((c) => c.tail)];
  const kinds = { reply: [], "delete a reply": [], quote: [], "delete a quote": [], repost: [], unrepost: [], edit: [] };
  const famous = drawn.famous ? await login(drawn.famous) : null;
  for (const [i, id] of targets.entries()) {
    const w = famous && i % 5 === 0 ? famous : writers[i % writers.length];
    for (const [kind, undo] of [["reply", "delete a reply"], ["quote", "delete a quote"]]) {
      const r = await probe(w.cookie, `/api/echo/${id}/${kind}`, "POST", { content: `bench ${kind}`, tags: [] });
      kinds[kind].push(r);
      const made = r.json?.echo?._id;
      if (made) kinds[undo].push(await probe(w.cookie, `/api/echo/delete/${made}`, "DELETE"));
    }
    kinds.repost.push(await probe(w.cookie, `/api/echo/${id}/repost`, "POST"));
    kinds.unrepost.push(await probe(w.cookie, `/api/echo/${id}/repost`, "DELETE"));
  }
  const authors = new Map();
  for (const e of drawn.edits) {
    authors.set(e.name, authors.get(e.name) ?? (await login(e.name)));
    const body = { content: `bench edit #edited${kinds.edit.length % 7}`, tags: ["bencha", "benchb", "benchc", "benchd"], warning: "bench warning" };
    kinds.edit.push(await probe(authors.get(e.name).cookie, `/api/echo/${e.id}/edit`, "PATCH", body));
  }
  return {
    "thread, first page": summarize(first),
    "thread, deeper pages": summarize(deeper),
    ...Object.fromEntries(Object.entries(kinds).map(([k, rs]) => [k, summarize(rs)])),
  };
}

/** The budget lines of threads and the conversation (≤ `roundTrips` round trips, ≤ `rows` rows). */
export function conversationBudgets(report, add, { roundTrips, rows }) {
  const within = (c) => c.failed === 0 && c.maxRoundTrips <= roundTrips && c.maxRows <= rows;
  if (report.threads) {
    const th = report.threads;
    add(
      `threads: every page ≤ ${roundTrips} round trips, ≤ ${rows} rows (5,000 replies to their end, chains, 400 random)`,
      within(th),
      `${th.reads} reads (the 5,000-reply thread: ${th.bigPages} pages, ${th.bigReplies} replies), max ${th.maxRows} rows, max ${th.maxRoundTrips} round trips${th.failed ? `, ${th.failed} failed` : ""}`,
    );
  }
  if (report.conversation) {
    const entries = Object.entries(report.conversation).filter(([, c]) => c.n > 0);
    add(
      `conversation over the population: thread pages, reply, quote, repost, unrepost, edit each ≤ ${roundTrips} round trips, ≤ ${rows} rows`,
      entries.every(([, c]) => within(c)),
      entries.map(([k, c]) => `${k} ${c.n}× max ${c.maxRows} rows ${c.maxRoundTrips} rt${c.failed ? ` (${c.failed} failed)` : ""}`).join("; "),
    );
  }
}

/** The conversation's table: requests, max and median rows, max round trips, p50/p99 ms. */
export function printConversation(report) {
  const lines = [...Object.entries(report.threads?.parts ?? {}), ...Object.entries(report.conversation ?? {})];
  if (!lines.length) return;
  console.log("\nthe conversation over the population (issue 31): requests, rows read (max / median), round trips (max), time p50 / p99");
  for (const [k, c] of lines) {
    console.log(
      `  ${k.padEnd(28)} ${String(c.n).padStart(4)}×  rows ${String(c.maxRows).padStart(3)} / ${String(c.p50Rows).padStart(3)}  rt ${c.maxRoundTrips}  ${String(c.p50Ms).padStart(5)} / ${String(c.p99Ms).padStart(5)} ms${c.failed ? `  failed ${c.failed}` : ""}`,
    );
  }
}
