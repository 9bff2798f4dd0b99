// The error shape of the public API: { error, message } with the same text, and the status.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = "Not signed in") => new HttpError(401, message);
export const forbidden = (message = "Not allowed") => new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

export function errorBody(message: string) {
  return { error: message, message };
}

/**
 * Marks an error answer made here, in the API's shape: the edge router passes a marked answer on
 * (removing the mark) and gives anything else of status ≥ 400 on /api the shape, without reading
 * either's body (worker/security.ts `apiErrorShape`). Every error answer of ours comes from here.
 */
export const ERROR_SHAPE_HEADER = "X-Echo-Error-Shape";

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}) {
  return Response.json(errorBody(message), { status, headers: { ...headers, [ERROR_SHAPE_HEADER]: "1" } });
}
