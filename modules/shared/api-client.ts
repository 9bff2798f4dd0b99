// Browser-side calls to the app's own /api (same origin, cookie session). Errors carry the
// server's `error` text, else the caller's fallback message (spec §8).
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const OFFLINE_HINT = "Check your connection and try again.";

export async function api<T>(path: string, options: { method?: string; body?: unknown; fallback: string }): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: options.method ?? "GET",
      headers: options.body !== undefined ? { "Content-Type": "application/json" } : undefined,
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      credentials: "same-origin",
    });
  } catch {
    // no answer at all (offline, connection dropped): say what the user can do about it
    throw new ApiError(0, `${options.fallback}. ${OFFLINE_HINT}`);
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (!res.ok) {
    const message = (json as { error?: unknown } | null)?.error;
    throw new ApiError(res.status, typeof message === "string" && message ? message : options.fallback);
  }
  return json as T;
}
