// Adapter, not from the origin: the tool convertTimezone called as the AI SDK does (aisdk.ts).
import { convertTimezone } from './time.js'
import { callAiTool } from './aisdk.js'

export default {
  description: 'The AI SDK tool convertTimezone',
  parameters: { type: 'object' },
  execute: (args: unknown) => callAiTool(convertTimezone, args),
}
