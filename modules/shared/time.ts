const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Under a minute 'now', under an hour 'Nm', under 24 hours 'Nh', under 7 days 'Nd', else 'Mon D'.
 * Spec §2 says 'now' for the whole first hour; minutes were added (docs/product-notes.md) because
 * an echo 50 minutes old reading 'now' looked broken.
 */
export function relativeTime(iso: string | number | Date, now: number = Date.now()): string {
  const then = new Date(iso);
  const diff = Math.max(0, now - then.getTime());
  const minutes = Math.floor(diff / 60_000);
  if (minutes < 1) return "now";
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d`;
  return `${MONTHS[then.getUTCMonth()]} ${then.getUTCDate()}`;
}
