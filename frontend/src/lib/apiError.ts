/** A failed API call: the server's message for a person, plus the HTTP status (0: no answer). */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  constructor(message: string, status: number) {
    super(message)
    this.status = status
  }
}
