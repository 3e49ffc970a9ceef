import { ERRORS, type ErrorCode } from '@numisma/contracts/errors'

/**
 * The one error type of the server: a catalogue code plus optional details. Expected refusals are
 * thrown as AppError and turned into `{code, message, details}` by the central handler.
 */
export class AppError extends Error {
  readonly statusCode: number

  constructor(
    readonly code: ErrorCode,
    readonly details?: Record<string, unknown>,
  ) {
    super(code)
    this.name = 'AppError'
    this.statusCode = ERRORS[code].status || 500
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError
