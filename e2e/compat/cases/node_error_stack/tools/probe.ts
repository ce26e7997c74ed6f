// Error details libraries rely on: captureStackTrace, cause, custom classes.
class HttpError extends Error {
  status: number
  constructor(message: string, status: number, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'HttpError'
    this.status = status
    if (Error.captureStackTrace) Error.captureStackTrace(this, HttpError)
  }
}

export default {
  description: 'Error details',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const holder: { stack?: string } = {}
    Error.captureStackTrace(holder)
    const e = new HttpError('not found', 404, { cause: new TypeError('inner') })
    const agg = new AggregateError([new Error('a'), new Error('b')], 'many')
    return {
      captured: typeof holder.stack,
      stackLimit: typeof Error.stackTraceLimit,
      custom: { name: e.name, message: e.message, status: e.status, instance: e instanceof HttpError && e instanceof Error, cause: (e.cause as Error).message, string: String(e) },
      stackStarts: e.stack?.split('\n')[0],
      aggregate: { name: agg.name, count: agg.errors.length, message: agg.message },
      json: JSON.stringify(e),
      keys: Object.keys(e),
      prepareStackTrace: typeof (Error as any).prepareStackTrace,
    }
  },
}
