/**
 * The dashboard's only way to the gateway: gateway operations (POST /api/v1/gateway) and
 * plain GETs, same origin, with the session cookie. Errors come back as words; an endpoint
 * the running gateway does not have yet is reported as NotAvailable, never faked.
 */

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The gateway does not offer this yet (404, or an operation it does not know). */
export class NotAvailable extends Error {}

function words(status: number, body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string")
    return (error as { message: string }).message;
  if (status === 401) return "You are signed out. Sign in again.";
  if (status === 403) return "Your role does not allow this; ask an organization admin.";
  return `The gateway answered ${status}.`;
}

async function parse(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

/**
 * The side of the organization an operation acts on (`context.scope`, docs/operations.md): the
 * organization's providers, or the signed-in person's own. Sent only where a page says which.
 */
export type Side = "organization" | "user";

export async function op<T>(operation: string, params: Record<string, unknown> = {}, side?: Side): Promise<T> {
  let res: Response;
  try {
    res = await fetch("/api/v1/gateway", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation, params, ...(side ? { context: { scope: side } } : {}) }),
    });
  } catch {
    throw new ApiFailure(0, "The gateway could not be reached. Check your connection and try again.");
  }
  const body = await parse(res);
  if (!res.ok) {
    const message = words(res.status, body);
    if (res.status === 400 && message.startsWith(`Unknown operation "${operation}"`))
      throw new NotAvailable(`This gateway does not offer ${operation} yet.`);
    throw new ApiFailure(res.status, message);
  }
  return (body as { data: T }).data;
}

export async function get<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" } });
  const body = await parse(res);
  if (res.status === 404) throw new NotAvailable(`This gateway does not offer ${path.split("?")[0]} yet.`);
  if (!res.ok) throw new ApiFailure(res.status, words(res.status, body));
  return body as T;
}

export async function post<T>(path: string, payload: unknown): Promise<T> {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  const body = await parse(res);
  if (res.status === 404) throw new NotAvailable(`This gateway does not offer ${path} yet.`);
  if (!res.ok) throw new ApiFailure(res.status, words(res.status, body));
  return body as T;
}
