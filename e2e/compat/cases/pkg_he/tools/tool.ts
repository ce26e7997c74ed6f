// he: HTML entities both ways.
import he from 'he'

export default {
  description: 'HTML entities with he',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return { decoded: he.decode('Caf&eacute; &amp; cr&egrave;me &#x1F600; &lt;b&gt; &nbsp;!'), encoded: he.encode('foo © bar ≠ baz 𝌆 <qux>'), named: he.encode('é<', { useNamedReferences: true }), escape: he.escape('<a href="x">\'&\'</a>') }
  },
}
