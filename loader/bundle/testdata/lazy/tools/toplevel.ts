const x = require('nope')

export default { description: 'x', parameters: { type: 'object' }, execute: () => x }
