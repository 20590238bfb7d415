/** Horizon failures as one error type the pipeline's workers can reason about (retry or not). */

export interface HorizonProblem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  extras?: {
    envelope_xdr?: string;
    result_xdr?: string;
    result_codes?: { transaction: string; inner_transaction?: string; operations?: string[] };
    hash?: string;
  };
}

export class HorizonRequestError extends Error {
  constructor(
    message: string,
    /** HTTP status; null when no response arrived (connection refused, reset, DNS). */
    readonly status: number | null,
    /** The problem `type` suffix, e.g. "timeout", "rate_limit_exceeded". */
    readonly problem: string | null,
  ) {
    super(message);
    this.name = 'HorizonRequestError';
  }

  /** No response, 429 and 5xx (504 timeout included: resubmit the same envelope) may succeed later. */
  get retryable(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}

/**
 * The SDK reports failures in several shapes: an axios-style error ({response: {status, data}}),
 * NetworkError/BadResponseError ({response: <problem JSON>}), or a bare Error without a response.
 */
export function problemOf(error: unknown): { status: number | null; problem: HorizonProblem | null } {
  const response = (error as { response?: { status?: unknown; data?: unknown } } | null)?.response;
  if (!response || typeof response !== 'object') return { status: null, problem: null };
  const data = (response.data && typeof response.data === 'object' ? response.data : response) as HorizonProblem;
  const status = typeof response.status === 'number' ? response.status : typeof data.status === 'number' ? data.status : null;
  return { status, problem: data };
}

export function isNotFound(error: unknown): boolean {
  return problemOf(error).status === 404 || (error as { name?: string } | null)?.name === 'NotFoundError';
}

export function toHorizonError(error: unknown, what: string): HorizonRequestError {
  if (error instanceof HorizonRequestError) return error;
  const { status, problem } = problemOf(error);
  const type = problem?.type?.split('/').pop() ?? null;
  const reason = problem?.title ?? (error instanceof Error ? error.message : String(error));
  return new HorizonRequestError(`Horizon ${what} failed${status ? ` (${status})` : ''}: ${reason}`, status, type);
}
