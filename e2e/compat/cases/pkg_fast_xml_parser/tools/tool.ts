// fast-xml-parser: XML to objects and back.
import { XMLParser, XMLBuilder, XMLValidator } from 'fast-xml-parser'

const XML = `<?xml version="1.0"?><feed><title>News</title><entry id="1"><title>First &amp; best</title><tag>a</tag><tag>b</tag></entry><entry id="2"><title>Second</title></entry></feed>`

export default {
  description: 'XML with fast-xml-parser',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const obj = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(XML)
    return { obj, built: new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', format: false }).build({ a: { '@x': '1', b: ['one', 'two'] } }), valid: XMLValidator.validate('<a><b></a>') === true }
  },
}
