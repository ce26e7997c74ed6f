import gone from 'gone'

function later() {
  return require('gone')
}

export default { description: 'x', parameters: { type: 'object' }, execute: () => [gone, later] }
