// date-fns: format, add, differences, parsing, at a fixed date.
import { format, addDays, differenceInCalendarDays, parseISO, formatDistanceStrict, startOfWeek, isWeekend, eachDayOfInterval, formatISO } from 'date-fns'
import { de } from 'date-fns/locale'

export default {
  description: 'Date arithmetic with date-fns',
  parameters: { type: 'object', properties: { date: { type: 'string' } } },
  async execute(args: { date?: string }) {
    const d = parseISO(args.date ?? '2024-02-27T10:30:00Z')
    return {
      formatted: format(d, "EEEE, MMMM do yyyy 'at' HH:mm"),
      german: format(d, 'EEEE, d. MMMM yyyy', { locale: de }),
      plus3: formatISO(addDays(d, 3)),
      days: differenceInCalendarDays(parseISO('2024-12-25'), d),
      distance: formatDistanceStrict(d, parseISO('2024-03-10T00:00:00Z')),
      weekStart: format(startOfWeek(d, { weekStartsOn: 1 }), 'yyyy-MM-dd'),
      weekend: isWeekend(parseISO('2024-03-02')),
      range: eachDayOfInterval({ start: d, end: addDays(d, 3) }).map((x) => format(x, 'MM-dd')),
    }
  },
}
