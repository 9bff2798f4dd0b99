// Local cron triggers for `npm start`. wrangler's local runtime does not fire `[triggers] crons`
// ("Scheduled Workers are not automatically triggered during local development"), so start.mjs
// fires them itself, at the times Cloudflare would, through the same scheduled-event path `npm run
// rank` uses: `GET /cdn-cgi/handler/scheduled?cron=<expression>&time=<ms>` on the running server
// (the router passes the event to the community vertical's real scheduled handler).
//
// The matcher knows the five-field numeric forms, in UTC as Cloudflare reads them:
//   minute hour day-of-month month day-of-week, each field `*`, `n`, `a-b`, `*/s`, `a-b/s`, `n/s`
//   or a comma list of these (day-of-week 0–7, 0 and 7 Sunday; when both day fields are
//   restricted, either may match, as in Vixie cron).
// Anything else (names such as MON or JAN, L, W, #, six fields) is refused when the server starts,
// not silently never fired.

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
];

function parseField(text, { name, min, max }, expression) {
  const values = new Set();
  const bad = (why) => new Error(`cron "${expression}": ${name} "${text}" ${why} (local cron supports numbers, *, a-b, /step and lists)`);
  for (const part of text.split(",")) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw bad("is not a supported form");
    let from = min;
    let to = max;
    if (m[1] !== "*") {
      from = Number(m[2]);
      // `n/s` runs from n to the end of the range, as in Vixie cron
      to = m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : from;
    }
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (from < min || to > max || from > to) throw bad(`is outside ${min}-${max}`);
    if (step < 1) throw bad("has a step below 1");
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return { values, any: text === "*" };
}

/** A matcher for one cron expression: `matches(date)` is true in the minutes it fires (UTC). */
export function parseCron(expression) {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`cron "${expression}": expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`);
  const [minute, hour, dom, month, dow] = parts.map((p, i) => parseField(p, FIELDS[i], expression));
  if (dow.values.has(7)) dow.values.add(0);
  return {
    expression,
    matches(date) {
      if (!minute.values.has(date.getUTCMinutes()) || !hour.values.has(date.getUTCHours()) || !month.values.has(date.getUTCMonth() + 1)) return false;
      const domOk = dom.values.has(date.getUTCDate());
      const dowOk = dow.values.has(date.getUTCDay());
      if (dom.any || dow.any) return domOk && dowOk;
      return domOk || dowOk;
    },
  };
}

/** The expressions of `crons` that fire in the minute of `date`. */
export function dueCrons(crons, date) {
  return crons.filter((c) => c.matches(date)).map((c) => c.expression);
}

/**
 * Fire `expressions` on the server at `baseUrl` as Cloudflare would: at the start of each UTC
 * minute, every expression due in it (scheduledTime = that minute). With `everyMs`, every
 * expression every `everyMs` instead (tests: LOCAL_CRON_EVERY_MS). A pass still running when its
 * next time comes is not started twice. Returns `stop()`.
 */
export function startCronRunner({ baseUrl, expressions, everyMs, log = console.log }) {
  const crons = expressions.map(parseCron);
  const running = new Set();
  let timer;
  let stopped = false;

  async function fire(expression, time) {
    if (running.has(expression)) {
      log(`[local cron] ${expression}: the previous pass is still running; skipped`);
      return;
    }
    running.add(expression);
    const started = Date.now();
    try {
      const url = `${baseUrl}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(expression)}&time=${time}`;
      const res = await fetch(url, { signal: AbortSignal.timeout(10 * 60_000) });
      const outcome = await res.text();
      log(`[local cron] ${expression} at ${new Date(time).toISOString()}: ${res.status} ${outcome.trim()} (${Date.now() - started} ms)`);
    } catch (error) {
      // the server may not be listening yet (first tick) or be shutting down
      log(`[local cron] ${expression}: not fired (${error?.cause?.code ?? error?.message ?? error})`);
    } finally {
      running.delete(expression);
    }
  }

  if (everyMs) {
    timer = setInterval(() => {
      for (const c of crons) void fire(c.expression, Date.now());
    }, everyMs);
  } else {
    const next = () => {
      if (stopped) return;
      const now = Date.now();
      const minute = Math.floor(now / 60_000) * 60_000 + 60_000;
      timer = setTimeout(() => {
        for (const expression of dueCrons(crons, new Date(minute))) void fire(expression, minute);
        next();
      }, minute - now);
    };
    next();
  }
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(timer);
    },
  };
}
