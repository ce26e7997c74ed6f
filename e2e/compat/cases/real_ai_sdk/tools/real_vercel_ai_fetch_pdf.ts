// Adapter, not from the origin: the tool fetchPdfTool called as the AI SDK does (aisdk.ts).
import { fetchPdfTool } from './fetch-pdf-tool.js'
import { callAiTool } from './aisdk.js'

export default {
  description: 'The AI SDK tool fetchPdfTool',
  parameters: { type: 'object' },
  execute: (args: unknown) => callAiTool(fetchPdfTool, args),
}
