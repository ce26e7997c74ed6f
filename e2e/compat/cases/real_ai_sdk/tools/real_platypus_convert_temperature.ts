// Adapter, not from the origin: the tool convertTemperature called as the AI SDK does (aisdk.ts).
import { convertTemperature } from './math.js'
import { callAiTool } from './aisdk.js'

export default {
  description: 'The AI SDK tool convertTemperature',
  parameters: { type: 'object' },
  execute: (args: unknown) => callAiTool(convertTemperature, args),
}
