/**
 * A render that could not be produced. The message is shown to the buyer (job `error` field), so it never
 * carries paths, argv or encoder output; those travel in `cause` for the logs.
 */
export class RenderError extends Error {
  override name = 'RenderError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function isRenderError(error: unknown): error is RenderError {
  return error instanceof Error && error.name === 'RenderError';
}
