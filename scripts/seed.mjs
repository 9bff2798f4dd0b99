// `npm run seed`: demo users, echos and likes, written through the public API (so through the
// same module services and validation as any client). Uses the server at SEED_URL or
// http://127.0.0.1:8787 if one answers there; otherwise starts the production build on
// STATE_DIR for the duration. Idempotent enough to run twice: existing users log in instead.
import { existsSync } from "node:fs";
import path from "node:path";
import { root, stateDir } from "./lib.mjs";
import { buildVerticals } from "./build.mjs";
import { startServer } from "./server.mjs";

const PASSWORD = "password123";
const USERS = ["alice", "bob", "carol", "dave", "erin"];
const TOPICS = [
  ["Shipped the feed rules engine today: tags in, tags out, authors, dates.", ["tech", "work"]],
  ["Morning run along the river. Cold, bright, worth it.", ["fitness", "nature"]],
  ["Reading 'The Pragmatic Programmer' again; it holds up.", ["books", "learning"]],
  ["Best ramen in town is the tiny place with no sign.", ["food", "travel"]],
  ["Finally understood keyset pagination. OFFSET was lying to me.", ["tech", "learning"]],
  ["New album on repeat all afternoon.", ["music"]],
  ["Sketching in the park until the light went.", ["art", "nature"]],
  ["Small teams ship faster when the rules are written down.", ["work", "thoughts"]],
  ["Train window, mountains, no signal. Perfect.", ["travel"]],
  ["Note to self: sleep is a feature, not a bug.", ["life", "personal"]],
];

async function reachable(url) {
  try {
    return (await fetch(`${url}/api/health`)).ok;
  } catch {
    return false;
  }
}

function client(base) {
  let cookie = "";
  return async (method, p, body) => {
    const res = await fetch(base + p, {
      method,
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // answers also set the D1 bookmark cookie (decision 017): keep the session one
    const set = res.headers.getSetCookie().find((c) => /^(__Host-)?echo_session=/.test(c));
    if (set) cookie = set.split(";")[0];
    const json = await res.json().catch(() => null);
    return { status: res.status, json };
  };
}

let base = process.env.SEED_URL || "http://127.0.0.1:8787";
let server = null;
if (!(await reachable(base))) {
  if (!existsSync(path.join(root, "build", "echos", "server"))) await buildVerticals();
  server = await startServer({ port: 8797, stateDir: stateDir() });
  base = server.baseUrl;
}

try {
  const sessions = {};
  for (const name of USERS) {
    const call = client(base);
    let res = await call("POST", "/api/auth/signup", { userName: name, password: PASSWORD });
    if (res.status === 409) res = await call("POST", "/api/auth/login", { userName: name, password: PASSWORD });
    if (res.status >= 300) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.json)}`);
    sessions[name] = call;
  }
  const echoIds = [];
  for (let i = 0; i < 40; i++) {
    const name = USERS[i % USERS.length];
    const [content, tags] = TOPICS[i % TOPICS.length];
    const res = await sessions[name]("POST", "/api/echo/post", { content: `${content} (#${i + 1})`, tags });
    if (res.status !== 201) throw new Error(`post: ${res.status} ${JSON.stringify(res.json)}`);
    echoIds.push(res.json.echo._id);
  }
  let likes = 0;
  for (const [u, name] of USERS.entries()) {
    for (const [i, id] of echoIds.entries()) {
      if ((i * 7 + u * 3) % 5 < 2) {
        await sessions[name]("POST", `/api/echo/like/${id}`);
        likes++;
      }
    }
  }
  const ids = {};
  for (const name of USERS) ids[name] = (await sessions[name]("GET", "/api/auth/me")).json._id;
  const scrolls = [
    ["alice", { name: "Tech & learning", description: "Everything tech, nothing else", type: "feed", feedConfig: { includedTags: ["tech", "learning"] } }],
    ["alice", { name: "Most liked this month", type: "feed", feedConfig: { sortBy: "mostLiked", sortTimeRange: "1month" } }],
    ["bob", { name: "Travel & food", type: "feed", feedConfig: { includedTags: ["travel", "food"], excludedTags: ["work"] } }],
    ["bob", { name: "Bob's picks", description: "Hand-picked", type: "curation" }],
    ["carol", { name: "Friends", type: "feed", feedConfig: { authors: [ids.alice, ids.bob] } }],
    ["carol", { name: "Private notes", type: "curation", isPrivate: true }],
  ];
  const scrollIds = [];
  for (const [name, body] of scrolls) {
    const res = await sessions[name]("POST", "/api/scroll/create", body);
    if (res.status !== 201) throw new Error(`scroll: ${res.status} ${JSON.stringify(res.json)}`);
    scrollIds.push(res.json.scroll._id);
  }
  for (const id of echoIds.slice(0, 5)) await sessions.bob("POST", `/api/scroll/${scrollIds[3]}/add-echo`, { echoId: id });
  await sessions.dave("POST", `/api/scroll/${scrollIds[0]}/follow`);
  await sessions.erin("POST", `/api/scroll/${scrollIds[2]}/follow`);
  await sessions.alice("POST", `/api/scroll/${scrollIds[3]}/follow`);
  for (const [from, to] of [["bob", "alice"], ["carol", "alice"], ["alice", "bob"], ["erin", "dave"]]) {
    await sessions[from]("POST", `/api/profile/user/${ids[to]}/follow`);
  }
  const rank = await fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
  console.log(
    `Seeded ${USERS.length} users (password "${PASSWORD}"), ${echoIds.length} echos, ${likes} likes, ${scrolls.length} scrolls` +
      ` at ${base}; ranking pass: ${rank.ok ? "done" : `failed (${rank.status})`}`,
  );
} finally {
  await server?.stop();
}
