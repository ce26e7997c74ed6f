// Adapter, not from the origin: text-toolkit's case_to_train tool called over MCP (mcp.ts).
import { registerCaseTransformations } from './text-toolkit/tools/case-transformations.js'
import { callOverMcp } from './mcp.js'

export default {
  description: 'The case_to_train tool of text-toolkit',
  parameters: { type: 'object' },
  execute: (args: Record<string, unknown>) => callOverMcp(registerCaseTransformations, 'case_to_train', args),
}
