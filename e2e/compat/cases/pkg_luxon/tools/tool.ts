// luxon: zones, durations, intervals, localized formats.
import { DateTime, Duration, Interval } from 'luxon'

export default {
  description: 'Dates with luxon',
  parameters: { type: 'object', properties: { zone: { type: 'string' } } },
  async execute(args: { zone?: string }) {
    const d = DateTime.fromISO('2024-03-10T12:00:00Z', { zone: 'utc' })
    const z = d.setZone(args.zone ?? 'America/New_York')
    return {
      iso: d.toISO(),
      zoned: z.toISO(),
      offset: z.offsetNameShort,
      full: d.setLocale('en-US').toLocaleString(DateTime.DATETIME_FULL),
      de: d.setLocale('de').toFormat('cccc, d. LLLL yyyy'),
      duration: Duration.fromObject({ hours: 26, minutes: 5 }).shiftTo('days', 'hours', 'minutes').toHuman(),
      interval: Interval.fromDateTimes(d, d.plus({ weeks: 2 })).length('days'),
      relative: d.toRelative({ base: d.plus({ days: 3 }) }),
      invalid: DateTime.fromISO('2024-02-30').invalidReason,
    }
  },
}
