// From github.com/vercel/ai examples/ai-e2e-next/tool/fetch-pdf-tool.ts at ed857f50f112e23930b0c2dd8d532cc8bebbc911 (Apache-2.0, Copyright 2023 Vercel, Inc.); the URL points at the loopback stub.
import { convertUint8ArrayToBase64 } from '@ai-sdk/provider-utils';
import { tool, type UIToolInvocation } from 'ai';
import { z } from 'zod';

export const fetchPdfTool = tool({
  description: 'Fetch a PDF',

  inputSchema: z.object({}),
  async execute() {
    const response = await fetch(
      `${process.env.COMPAT_HTTP}/ai.pdf`,
    );

    const arrayBuffer = await response.arrayBuffer();
    const uint8Array = new Uint8Array(arrayBuffer);
    const base64 = convertUint8ArrayToBase64(uint8Array);

    return {
      mediaType: 'application/pdf' as const,
      base64,
    };
  },
  toModelOutput: ({ output: { mediaType, base64 } }) => ({
    type: 'content',
    value: [{ type: 'file', mediaType, data: { type: 'data', data: base64 } }],
  }),
});

export type FetchPDFUIToolInvocation = UIToolInvocation<typeof fetchPdfTool>;
