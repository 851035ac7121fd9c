/** Machine-readable error codes shared by every transport; messages say what to do. */
export type ApiErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'limit_reached'
  | 'payload_too_large'
  | 'unavailable'
  | 'internal';

export interface ApiErrorBody {
  code: ApiErrorCode;
  message: string;
  path?: string;
}

const STATUS_BY_CODE: Record<ApiErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  limit_reached: 409,
  payload_too_large: 413,
  unavailable: 503,
  internal: 500,
};

/** The one error type that crosses the management boundary (HTTP and IPC alike). */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly path: string | undefined;

  constructor(code: ApiErrorCode, message: string, path?: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.path = path;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }

  toBody(): { error: ApiErrorBody } {
    return {
      error: { code: this.code, message: this.message, ...(this.path ? { path: this.path } : {}) },
    };
  }

  static fromBody(body: unknown, fallbackStatus: number): ApiError {
    const error = (body as { error?: Partial<ApiErrorBody> } | null)?.error;
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      return new ApiError(error.code, error.message, error.path);
    }
    return new ApiError(
      fallbackStatus >= 500 ? 'internal' : 'invalid_input',
      `Request failed (${fallbackStatus}).`,
    );
  }
}
