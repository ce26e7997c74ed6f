// JSON.parse on texts valid and not: each line is the value (JSON.stringify,
// and what JSON.stringify cannot show) or the error's name and message.
// testdata/json_parse.node.json is what Node 20 printed for it:
//   node -e "console.log((function () { $(cat json_parse.probe.js) })())"
const texts = [
  '', ' ', '{', '{"a"', '{"a":', '{"a":1', '{"a":1,', '[', '[1', '[1,', '"abc', 'x', 'xyz', '{"a":1}x', '1 2',
  '-', '1.', '1e', '1e+', '"\\x"', '"\\u12"', '01', '{a:1}', '[1,]', '{"a":1,}', 'tru', 'nul', 'trx', 'nax', '"a\tb"',
  'NaN', 'Infinity', 'undefined', '[object Object]', 'falsey', 'true x', '-01', '1.5e', '[-]', '{"a" 1}',
  '{"a":1 "b":2}', '[1 2]', '{"a":}', '{,}', '[,1]', 'abcdefghijklmnopqrstuvwxyz', '0123456789x',
  'x0123456789012345678', 'x01234567890123456789', '{"a":[1,2,{"b":"c"}],"d":{"e":x}}', '[1,2,3,4,5,6,7,8,9,x]',
  '[1,2,3,4,5,6,7,8,9,11,x]', '[1,2,3,4,5,6,7,8,9,1x]', '"é', 'é', '{"é":é}', '.5', '+1', '-a', '"\\', '"\\u',
  '"\\u00"', '["\\u0041\\uZZZZ"]', '{"a":1,"b":tr}', '[nul]', '[1,"abc]', '\u2028', '\ufeff1', '[1,2,3,4,5,6,7,8,9,😀]',
  '"a\u0000b"', '"\\"', '"\\\\"',
  '{}', '[]', '""', '0', '-0', '1', '-1', '1.5', '-1.5e-3', '1E400', '-1e400', '1e-400', '123456789012345678901234567890',
  '9007199254740993', '0.1', '1e21', '123456789012345', '1234567890123456', '-123456789012345', '1.0', '10e0',
  ' \t\n\r[ 1 , 2 ]\r\n', '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20AC\\uD83D\\uDE00"', '"é€😀 raw"',
  '{"a":{"b":{"c":[[],{},[{}]]}}}', '{"a":1,"a":2,"b":3}', '{"b":1,"a":2}', '{"":""}', 'true', 'false', 'null',
  '[true,false,null,"x",1,{"k":[1]}]', '{"__proto__":{"x":1},"y":2}', '"\\ud800"', '"\\udc00x\\ud800"', '{"\\ud800":1}',
  '"\\uDBFF\\uDFFF"',
]
const out = texts.map((t) => {
  try {
    const v = JSON.parse(t)
    let s = JSON.stringify(v)
    if (Object.is(v, -0)) s += ' (-0)'
    if (typeof v === 'string') s += ' units ' + Array.from({ length: v.length }, (_, i) => v.charCodeAt(i).toString(16)).join(',')
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      s += ' own ' + JSON.stringify(Object.getOwnPropertyNames(v)) + ' proto ' + (Object.getPrototypeOf(v) === Object.prototype)
      for (const k of Object.keys(v)) if (k.length === 1 && k.charCodeAt(0) >= 0xd800) s += ' key ' + k.charCodeAt(0).toString(16)
    }
    return JSON.stringify(t) + ' => ' + s
  } catch (e) {
    return JSON.stringify(t) + ' => ' + (e instanceof SyntaxError ? 'SyntaxError' : 'other ' + e.name) + ': ' + e.message
  }
})
// A raw lone surrogate in the text is kept.
const raw = JSON.parse('["' + String.fromCharCode(0xd83d) + '", "x' + String.fromCharCode(0xdc00) + '"]')
out.push('raw surrogates => ' + raw.map((s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16)).join(',')).join(' '))
// A setter on Object.prototype is not called: parse defines.
let called = 0
Object.defineProperty(Object.prototype, 'trap', { set() { called++ }, configurable: true })
const trapped = JSON.parse('{"trap":1}')
delete Object.prototype.trap
out.push('setter => called ' + called + ', own ' + Object.prototype.hasOwnProperty.call(trapped, 'trap'))
// The reviver: depth first, holder as this, undefined deletes, the root under "".
const seen = []
const revived = JSON.parse('{"a":[1,{"b":2}],"c":3,"d":{"e":4}}', function (k, v) {
  seen.push(JSON.stringify(k) + ':' + (typeof v === 'object' ? (Array.isArray(v) ? 'array' : 'object') : v) + ':' + (this === undefined ? 'undefined' : Object.keys(this).join('|')))
  if (k === 'c') return undefined
  if (typeof v === 'number') return v * 10
  return v
})
out.push('reviver => ' + JSON.stringify(revived) + ' ' + seen.join(' '))
out.push('reviver not a function => ' + JSON.stringify(JSON.parse('[1]', 5)))
out.push('arguments => ' + JSON.stringify([JSON.parse(1), JSON.parse(true), JSON.parse({ toString: () => '[2]' })]))
out.push('function => ' + JSON.parse.name + JSON.parse.length + ' ' + Object.getOwnPropertyDescriptor(JSON, 'parse').enumerable)
return out.join('\n')
