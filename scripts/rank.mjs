// `npm run rank`: one ranking pass by hand, through wrangler's scheduled-event trigger on the
// running local server (RANK_URL, default http://127.0.0.1:8787).
const base = process.env.RANK_URL || "http://127.0.0.1:8787";
const res = await fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
if (!res.ok) {
  console.error(`scheduled trigger failed: ${res.status} ${await res.text()}`);
  process.exit(1);
}
console.log(`ranking pass ran on ${base}`);
