// date-fns-tz: times in other zones.
import { formatInTimeZone, toZonedTime, fromZonedTime } from 'date-fns-tz'

export default {
  description: 'Time zones with date-fns-tz',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const d = new Date('2024-03-31T00:30:00Z')
    return { berlin: formatInTimeZone(d, 'Europe/Berlin', 'yyyy-MM-dd HH:mm zzz'), tokyo: formatInTimeZone(d, 'Asia/Tokyo', 'yyyy-MM-dd HH:mm XXX'), zoned: toZonedTime(d, 'America/New_York').toISOString(), utc: fromZonedTime('2024-07-01 09:00', 'Europe/London').toISOString() }
  },
}
