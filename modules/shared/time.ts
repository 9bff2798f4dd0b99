const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Spec §2: under 1 hour 'now', under 24 hours 'Nh', under 7 days 'Nd', else 'Mon D'. */
export function relativeTime(iso: string | number | Date, now: number = Date.now()): string {
  const then = new Date(iso);
  const diff = Math.max(0, now - then.getTime());
  const hours = Math.floor(diff / 3_600_000);
  if (hours < 1) return "now";
  if (hours < 24) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d`;
  return `${MONTHS[then.getUTCMonth()]} ${then.getUTCDate()}`;
}
