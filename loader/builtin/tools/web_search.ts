// web_search: search the web through the Beeuni search API.
//
// This is the Beeuni source of the tool. `beeuni tools eject web_search` writes
// it into a project as tools/web_search.ts, and from then on it is yours to
// change. Keep the name, the `query` argument and the output JSON
// ({ results: [{ query, items }] }): skills that name web_search and the web UI
// view rely on them.
//
// It reads BEEUNI_API_URL and BEEUNI_TOKEN from context.env (the box
// environment plus the secrets this agent receives), not from the process
// environment, so a secret changed after the box booted is used at once.

interface WebSearchArgs {
  query?: string
}

interface ToolContext {
  sessionId: string
  agent: string
  directory: string
  env: Record<string, string | undefined>
  signal: AbortSignal
}

const ENDPOINT = '/v1/web_search'

// How much of an error answer's body is quoted in the thrown message.
const ERROR_BODY_HEAD = 500

export default {
  description:
    'Search the web. Returns, for each query, the result items the search found (typically title, url and snippet). ' +
    'Run several searches at once by joining queries with "|||", e.g. "go generics tutorial|||rust traits vs interfaces".',
  parameters: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'What to search for. Join several queries with "|||" to run them at once.',
      },
    },
    required: ['query'],
  },
  async execute(args: WebSearchArgs, context: ToolContext) {
    const queries = String(args.query ?? '').split('|||').map((query) => query.trim()).filter(Boolean)
    if (queries.length === 0) {
      throw new Error('query is empty: pass `query`, e.g. {"query": "beeuni tools"}; join several queries with "|||".')
    }
    const baseURL = requireEnv(context, 'BEEUNI_API_URL').replace(/\/+$/, '')
    const token = requireEnv(context, 'BEEUNI_TOKEN')

    // The queries run concurrently; the first one that fails fails the call.
    const results = await Promise.all(
      queries.map(async (query) => ({ query, items: await search(baseURL, token, query, context.signal) })),
    )
    return { results }
  },
}

// requireEnv returns the variable name from context.env, or throws a message
// that says how to set it.
function requireEnv(context: ToolContext, name: string): string {
  const value = context.env?.[name]
  if (!value) {
    throw new Error(
      `${name} is not set: set it in the sandbox environment, or run \`beeuni secrets set ${name}=-\` and grant it to this agent.`,
    )
  }
  return value
}

// search asks the API for one query and returns its items.
async function search(baseURL: string, token: string, query: string, signal: AbortSignal): Promise<unknown[]> {
  const url = baseURL + ENDPOINT
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
      signal,
    })
  } catch (error) {
    // A stopped turn is not the API's fault: let the abort through as it is.
    if (signal?.aborted) throw error
    throw new Error(`web_search API at ${url} could not be reached: ${messageOf(error)}. Check BEEUNI_API_URL.`)
  }
  const body = await response.text()
  if (!response.ok) {
    const head = body.trim().slice(0, ERROR_BODY_HEAD)
    throw new Error(`web_search API answered ${response.status}` + (head ? `: ${head}` : ''))
  }
  let data: { items?: unknown }
  try {
    data = JSON.parse(body)
  } catch {
    throw new Error(`web_search API answered ${response.status} with a body that is not JSON: ${body.slice(0, ERROR_BODY_HEAD)}`)
  }
  if (!Array.isArray(data?.items)) {
    throw new Error(`web_search API answered without an "items" list: ${body.slice(0, ERROR_BODY_HEAD)}`)
  }
  return data.items
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
