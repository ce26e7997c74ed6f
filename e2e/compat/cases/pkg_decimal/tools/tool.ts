// decimal.js: money arithmetic without float error.
import Decimal from 'decimal.js'

export default {
  description: 'Decimals with decimal.js',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const total = [new Decimal('0.1'), new Decimal('0.2'), new Decimal('19.99')].reduce((a, b) => a.plus(b))
    return { total: total.toString(), tax: total.times('0.19').toDecimalPlaces(2).toFixed(2), sqrt: new Decimal(2).sqrt().toSignificantDigits(20).toString(), pow: new Decimal(1.01).pow(365).toFixed(6), float: 0.1 + 0.2 }
  },
}
