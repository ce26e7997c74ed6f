// bun:sqlite on a file in the checkout: create, reopen read-only, JSON1.
import { Database } from 'bun:sqlite'
import path from 'node:path'

export default {
  description: 'bun:sqlite on a file',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { directory: string }) {
    const file = path.join(context.directory, 'notes.db')
    const db = new Database(file, { create: true })
    db.exec('PRAGMA journal_mode = WAL')
    db.exec("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT, tags TEXT, created TEXT DEFAULT '2024-01-02')")
    const add = db.query('INSERT INTO notes (body, tags) VALUES (?, ?) RETURNING id')
    const ids = ['buy milk', 'call Ada', 'ship it'].map((b, i) => (add.get(b, JSON.stringify(['t' + i, 'all'])) as { id: number }).id)
    db.close()
    const ro = new Database(file, { readonly: true })
    const rows = ro.query("SELECT id, body, json_extract(tags, '$[0]') AS first FROM notes ORDER BY id").all()
    const tagged = ro.query("SELECT COUNT(*) AS n FROM notes, json_each(notes.tags) WHERE json_each.value = 'all'").get()
    const write = (() => { try { ro.run("INSERT INTO notes (body) VALUES ('x')"); return 'wrote' } catch (e) { return (e as Error).message } })()
    const cols = ro.query('SELECT * FROM notes LIMIT 1').columnNames
    ro.close()
    return { ids, rows, tagged, write, cols }
  },
}
