// dayjs with plugins: UTC, relative time, custom parse.
import dayjs from 'dayjs'
import utc from 'dayjs/plugin/utc.js'
import relativeTime from 'dayjs/plugin/relativeTime.js'
import customParseFormat from 'dayjs/plugin/customParseFormat.js'
import 'dayjs/locale/fr.js'

dayjs.extend(utc)
dayjs.extend(relativeTime)
dayjs.extend(customParseFormat)

export default {
  description: 'Dates with dayjs',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const d = dayjs.utc('2024-01-02T03:04:05Z')
    return {
      format: d.format('YYYY-MM-DD HH:mm:ss [UTC] dddd'),
      add: d.add(1, 'month').endOf('month').toISOString(),
      from: d.from(dayjs.utc('2024-03-01T00:00:00Z')),
      fr: d.locale('fr').format('dddd D MMMM YYYY'),
      parsed: dayjs('02/01/2024 13:45', 'DD/MM/YYYY HH:mm').format('YYYY-MM-DDTHH:mm'),
      diff: dayjs.utc('2024-12-25').diff(d, 'day'),
      valid: dayjs('not a date').isValid(),
    }
  },
}
