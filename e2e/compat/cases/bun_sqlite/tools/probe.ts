// bun:sqlite in memory: the calls a tool's little database makes.
import { Database } from 'bun:sqlite'

export default {
  description: 'bun:sqlite in memory',
  parameters: { type: 'object', properties: { min: { type: 'number' } } },
  async execute(args: { min?: number }) {
    const db = new Database(':memory:')
    db.run('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total REAL, note TEXT)')
    const insert = db.prepare('INSERT INTO orders (customer, total, note) VALUES ($customer, $total, $note)')
    const insertMany = db.transaction((rows: { $customer: string; $total: number; $note: string | null }[]) => { for (const r of rows) insert.run(r) })
    insertMany([
      { $customer: 'Ada', $total: 12.5, $note: null },
      { $customer: 'Grace', $total: 99.95, $note: 'rush' },
      { $customer: 'Ada', $total: 40, $note: 'gift' },
    ])
    const info = db.run('INSERT INTO orders (customer, total) VALUES (?, ?)', ['Linus', 5])
    const byCustomer = db.query('SELECT customer, COUNT(*) AS n, SUM(total) AS sum FROM orders GROUP BY customer ORDER BY customer').all()
    const one = db.query('SELECT * FROM orders WHERE total > ?1 ORDER BY total DESC').get(args.min ?? 20)
    const values = db.query('SELECT id, customer FROM orders ORDER BY id').values()
    const none = db.query('SELECT * FROM orders WHERE id = ?').get(999)
    const bad = (() => { try { db.query('SELECT nope FROM orders').all(); return 'ran' } catch (e) { return (e as Error).message } })()
    const constraint = (() => { try { db.run('INSERT INTO orders (customer) VALUES (NULL)'); return 'inserted' } catch (e) { return (e as Error).message } })()
    const version = db.query('SELECT sqlite_version() AS v').get() as { v: string }
    db.close()
    return { info: { changes: info.changes, lastInsertRowid: Number(info.lastInsertRowid) }, byCustomer, one, values, none, bad, constraint, versionIs3: version.v.startsWith('3.') }
  },
}
