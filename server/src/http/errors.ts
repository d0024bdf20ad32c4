import { MSG } from "./messages.ts";

/**
 * The one error type services throw; the error handler turns it into the `{code,msg,data}` envelope.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }

  static badRequest(message: string = MSG.badRequest) {
    return new HttpError(400, message);
  }
  static unauthorized() {
    return new HttpError(401, MSG.loggedOut);
  }
  static forbidden(message: string = MSG.forbidden) {
    return new HttpError(403, message);
  }
  static notFound(message: string = MSG.notFound) {
    return new HttpError(404, message);
  }
  static conflict(message: string) {
    return new HttpError(409, message);
  }
  static tooManyRequests() {
    return new HttpError(429, MSG.tooManyRequests);
  }
}
