/** The browser's client for the app-internal JSON API (app/api/app/**): `{ data }` in, ApiError out. */
export type TFieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly details: TFieldErrors;

  constructor(status: number, message: string, details: TFieldErrors = {}) {
    super(message);
    this.status = status;
    this.details = details;
  }

  /** Messages for one field; 422 details are keyed by dotted path, `body.` prefixed when the body as a whole failed. */
  field(path: string): string[] | undefined {
    return this.details[path];
  }
}

type TMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export async function apiFetch<T>(path: string, options: { method?: TMethod; body?: unknown } = {}): Promise<T> {
  const method = options.method ?? "GET";
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: options.body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "Could not reach the server. Check your connection and try again.");
  }
  const payload = (await res.json().catch(() => null)) as { data?: T; error?: string; details?: TFieldErrors } | null;
  if (!res.ok) {
    throw new ApiError(res.status, payload?.error ?? `Request failed (${res.status})`, payload?.details ?? {});
  }
  return payload?.data as T;
}

/** A message fit for the user, whatever was thrown. */
export function errorMessage(error: unknown): string | null {
  if (!error) return null;
  if (error instanceof ApiError) {
    if (error.status === 401) return "Your session has ended. Sign in again.";
    return error.message;
  }
  return "Something went wrong. Try again.";
}

export function fieldErrors(error: unknown): TFieldErrors {
  return error instanceof ApiError && error.status === 422 ? error.details : {};
}
