// Adapter, not from the origin: the tool convertDistance called as the AI SDK does (aisdk.ts).
import { convertDistance } from './math.js'
import { callAiTool } from './aisdk.js'

export default {
  description: 'The AI SDK tool convertDistance',
  parameters: { type: 'object' },
  execute: (args: unknown) => callAiTool(convertDistance, args),
}
