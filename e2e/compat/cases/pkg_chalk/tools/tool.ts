// chalk with colors forced on (FORCE_COLOR=1): the escape codes tools print.
import chalk from 'chalk'

export default {
  description: 'Colors with chalk',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return JSON.stringify({ level: chalk.level, red: chalk.red('red'), nested: chalk.bold.bgBlue.white('x') + chalk.dim(' y'), hex: chalk.hex('#FF8800')('orange'), plain: new chalk.constructor ? 'ctor' : 'none' })
  },
}
