package jshost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBunSQLite: bun:sqlite answers what Bun 1.x answers (each want was
// printed by Bun for the same code).
func TestBunSQLite(t *testing.T) {
	root := project(t, map[string]string{"tools/e.ts": "import { Database, SQLiteError, Statement } from 'bun:sqlite'\nglobalThis.sq = { Database, SQLiteError, Statement }\n" + tool(evalTool)})
	s, _ := loadTools(t, root, Options{Directory: root}, "tools/e.ts")
	mustLoad(t, s)
	// err prints a thrown error as the cases compare it.
	const setup = `const err = (f) => { try { return ['ran', f()] } catch (e) { return [e.name, e.message, e.code, e.errno, e.byteOffset, e instanceof SQLiteError] } }; const { Database, SQLiteError, Statement } = sq; const db = new Database(':memory:'); db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, n INTEGER, f REAL, b BLOB)'); db.run("INSERT INTO t (name, n, f, b) VALUES ('a', 1, 1.5, x'0102')"); `
	cases := []struct{ name, code, want string }{
		{"all get values", "db.query('SELECT id, name, n, f FROM t').all().concat([db.query('SELECT name FROM t').get(), db.query('SELECT id, name FROM t').values()])", `[{"id":1,"name":"a","n":1,"f":1.5},{"name":"a"},[[1,"a"]]]`},
		{"blob is a Uint8Array", "(() => { const r = db.query('SELECT b FROM t').get(); return [r.b instanceof Uint8Array, [...r.b]] })()", `[true,[1,2]]`},
		{"run answers changes and lastInsertRowid", "[db.run(\"INSERT INTO t (name) VALUES ('b')\"), db.query('UPDATE t SET n = 7').run(), db.prepare('INSERT INTO t (name) VALUES (?)').run('c')]", `[{"changes":1,"lastInsertRowid":2},{"changes":2,"lastInsertRowid":2},{"changes":1,"lastInsertRowid":3}]`},
		{"exec of several statements counts them all", "db.exec(\"INSERT INTO t (name) VALUES ('m1'); INSERT INTO t (name) VALUES ('m2')\")", `{"changes":2,"lastInsertRowid":3}`},
		{"named parameters", "[db.query('SELECT $a AS a, :b AS b, @c AS c').get({ $a: 1, ':b': 2, '@c': 3 }), db.query('SELECT $a AS a').get({ a: 'bare' }), db.query('SELECT $a AS a').get({})]", `[{"a":1,"b":2,"c":3},{"a":"bare"},{"a":null}]`},
		{"positional parameters", "[db.query('SELECT ?1 AS a, ?2 AS b, ?1 AS c').get('x', 'y'), db.query('SELECT ? AS a, ? AS b').get(['p', 'q']), db.query('SELECT $n AS n').get(5)]", `[{"a":"x","b":"y","c":"x"},{"a":"p","b":"q"},{"n":5}]`},
		{"bound types", "db.query('SELECT typeof(?) a, typeof(?) b, typeof(?) c, typeof(?) d, typeof(?) e, typeof(?) f, typeof(?) g, typeof(?) h').get(1, 1.5, 2n, 'x', -0, 2 ** 60, true, new Uint16Array([1]))", `{"a":"integer","b":"real","c":"integer","d":"text","e":"real","f":"real","g":"integer","h":"blob"}`},
		{"integers past 2^53 round as in Bun", "db.query('SELECT 9007199254740993 AS a').get()", `{"a":9007199254740992}`},
		{"safeIntegers", "(() => { const d = new Database(':memory:', { safeIntegers: true }); const r = d.query('SELECT 9007199254740993 AS a, 1.5 AS b').get(); return [typeof r.a, String(r.a), r.b] })()", `["bigint","9007199254740993",1.5]`},
		{"strict requires every name", "(() => { const d = new Database(':memory:', { strict: true }); return [d.query('SELECT $a AS a, :b AS b').get({ a: 1, b: 2 }), err(() => d.query('SELECT $a AS a').get({}))] })()", `[{"a":1,"b":2},["Error","Missing parameter \"a\"",null,null,null,false]]`},
		{"wrong number of values", "err(() => db.query('SELECT ?, ?').all(1))", `["Error","SQLite query expected 2 values, received 1",null,null,null,false]`},
		{"a value SQLite cannot take", "err(() => db.query('SELECT ?').all(new Date(0)))", `["TypeError","Binding expected string, TypedArray, boolean, number, bigint or null",null,null,null,false]`},
		{"unique constraint", "err(() => db.run(\"INSERT INTO t (name) VALUES ('a')\"))", `["SQLiteError","UNIQUE constraint failed: t.name","SQLITE_CONSTRAINT_UNIQUE",2067,-1,true]`},
		{"no such column has its offset", "err(() => db.query('SELECT nope FROM t'))", `["SQLiteError","no such column: nope","SQLITE_ERROR",1,7,true]`},
		{"syntax error", "[err(() => db.run('INSERT INTO')), String((() => { try { db.run('SELEC') } catch (e) { return e } })())]", `[["SQLiteError","incomplete input","SQLITE_ERROR",1,-1,true],"SQLiteError: near \"SELEC\": syntax error"]`},
		{"empty SQL", "[err(() => db.query('  ')), err(() => db.run('-- x'))]", `[["RangeError","Invalid SQL statement",null,null,null,false],["Error","Query contained no valid SQL statement; likely empty query.",null,null,null,false]]`},
		{"query caches, prepare does not", "[db.query('SELECT 1') === db.query('SELECT 1'), db.prepare('SELECT 1') === db.prepare('SELECT 1')]", `[true,false]`},
		{"statement properties", "(() => { const st = db.query('SELECT * FROM t WHERE name = $name'); return [st.columnNames, st.paramsCount, st.declaredTypes, String(st), st.readonly, JSON.stringify(st), st instanceof Statement] })()", `[["id","name","n","f","b"],1,["INTEGER","TEXT","INTEGER","REAL","BLOB"],"SELECT * FROM t WHERE name = NULL",true,"{\"sql\":\"SELECT * FROM t WHERE name = $name\",\"isFinalized\":false,\"paramsCount\":1,\"columnNames\":[\"id\",\"name\",\"n\",\"f\",\"b\"]}",true]`},
		{"iterate reads lazily", "(() => { const it = db.query('SELECT 1 a UNION SELECT 2').iterate(); return [it.next(), [...db.query('SELECT 3 a')], Object.prototype.toString.call(it)] })()", `[{"value":{"a":1},"done":false},[{"a":3}],"[object Generator]"]`},
		{"finalized statement", "(() => { const st = db.prepare('SELECT 1'); st.finalize(); return [st.isFinalized, err(() => st.all())] })()", `[true,["Error","Statement has finalized",null,null,null,false]]`},
		{"transaction commits and rolls back", `(() => {
			db.run('CREATE TABLE q (x)')
			const add = db.transaction((x) => { db.run('INSERT INTO q VALUES (?)', [x]); if (x < 0) throw new Error('boom'); return x * 2 })
			return [add(3), err(() => add(-1)), db.query('SELECT x FROM q').values(), db.inTransaction, add.immediate(4), typeof add.deferred, typeof add.exclusive] })()`, `[6,["Error","boom",null,null,null,false],[[3]],false,8,"function","function"]`},
		{"nested transactions are savepoints", `(() => {
			db.run('CREATE TABLE q (x)')
			db.transaction(() => {
				db.run('INSERT INTO q VALUES (1)')
				try { db.transaction(() => { db.run('INSERT INTO q VALUES (2)'); throw new Error('inner') })() } catch {}
				db.transaction(() => db.run('INSERT INTO q VALUES (3)'))()
			})()
			return db.query('SELECT x FROM q ORDER BY x').values() })()`, `[[1],[3]]`},
		{"a closed database", "(() => { const d = new Database(':memory:'); const q = d.query('SELECT 2 AS two'); const st = d.prepare('SELECT 1 AS one'); d.close(); d.close(); return [err(() => d.query('SELECT 1')), q.isFinalized, st.all()] })()", `[["RangeError","Cannot use a closed database",null,null,null,false],true,[{"one":1}]]`},
		{"anonymous read-only", "err(() => new Database(':memory:', { readonly: true }))", `["Error","Cannot open an anonymous database in read-only mode.",null,null,null,false]`},
		{"misspelled option", "err(() => new Database(':memory:', { readOnly: true }))", `["TypeError","Misspelled option \"readOnly\" should be \"readonly\"",null,null,null,false]`},
		{"JSON1 and the version", "[db.query(\"SELECT json_extract('[1,[2]]', '$[1][0]') AS v\").get(), db.query('SELECT sqlite_version() AS v').get().v.startsWith('3.')]", `[{"v":2},true]`},
		{"databases dropped unclosed are closed by the GC", "(() => { for (let i = 0; i < 40; i++) new Database(':memory:').run('CREATE TABLE x (v)'); return 'ok' })()", `"ok"`},
		{"databases held open are bounded", "(() => { const held = []; try { for (let i = 0; i < 40; i++) held.push(new Database(':memory:')) } catch (e) { return [e.message, held.length <= 16] } finally { held.forEach((d) => d.close()) } })()", `["this tool has 16 bun:sqlite databases open: close the ones it is done with (db.close())",true]`},
		{"unsupported is refused", "err(() => db.serialize())", `["Error","db.serialize() is not supported by beeuni's bun:sqlite",null,null,null,false]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"code": "(() => { " + setup + "return (" + c.code + ") })()"})
			if r := call(t, s, "e", string(args)); r.Output != c.want {
				t.Errorf("%s\n got %s\nwant %s", c.code, r.Output, c.want)
			}
		})
	}
}

// TestBunSQLiteFiles: database files go through the policy as node:fs
// does (written only inside the workspace and the temp folder, read
// elsewhere), ATTACH and VACUUM INTO too.
func TestBunSQLiteFiles(t *testing.T) {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	eval := func(s *Set, code string) string {
		t.Helper()
		args, _ := json.Marshal(map[string]string{"code": code})
		return call(t, s, "e", string(args)).Output
	}
	root := project(t, map[string]string{"tools/e.ts": "import { Database } from 'bun:sqlite'\nglobalThis.Database = Database\n" + tool(evalTool)})
	outside := t.TempDir() // neither the workspace nor the temp folder: readable only
	seed := filepath.Join(outside, "seed.db")
	{
		s, _ := loadTools(t, root, Options{Directory: outside}, "tools/e.ts")
		mustLoad(t, s)
		if r := eval(s, "(() => { const d = new Database("+q(seed)+"); d.run('CREATE TABLE s (v)'); d.run(\"INSERT INTO s VALUES ('seeded')\"); d.close(); return 'ok' })()"); r != `"ok"` {
			t.Fatalf("seeding %s: %s", seed, r)
		}
	}
	s, _ := loadTools(t, root, Options{Directory: root}, "tools/e.ts")
	mustLoad(t, s)
	const err = `const err = (f) => { try { return ['ran', f()] } catch (e) { return [e.name, e.code, e.message] } }; `
	fsRefusal := eval(s, err+"err(() => require('node:fs').writeFileSync("+q(seed)+", 'x'))")
	if !strings.Contains(fsRefusal, "EACCES") {
		t.Fatalf("node:fs may write %s: %s", seed, fsRefusal)
	}
	cases := []struct{ name, code, want string }{
		{"create, reopen read-only", `(() => {
			const d = new Database('data/../notes.db', { create: true }); d.exec('PRAGMA journal_mode = WAL'); d.run('CREATE TABLE n (v)'); d.run("INSERT INTO n VALUES ('x')"); d.close()
			const ro = new Database('notes.db', { readonly: true }); const w = err(() => ro.run("INSERT INTO n VALUES ('y')")); const v = ro.query('SELECT v FROM n').values(); ro.close(); return [v, w] })()`, `[[["x"]],["SQLiteError","SQLITE_READONLY","attempt to write a readonly database"]]`},
		{"missing without create", "err(() => new Database('missing.db', { readwrite: true }))", `["SQLiteError","SQLITE_CANTOPEN","unable to open database file"]`},
		{"outside, read-only is allowed", "new Database(" + q(seed) + ", { readonly: true }).query('SELECT v FROM s').get()", `{"v":"seeded"}`},
		{"outside, writing is refused as node:fs refuses it", "err(() => new Database(" + q(seed) + "))", fsRefusal},
		{"ATTACH inside", "(() => { const d = new Database(':memory:'); d.run(" + q("ATTACH DATABASE '"+filepath.Join(root, "other.db")+"' AS o") + "); d.run('CREATE TABLE o.x (v)'); return d.query('SELECT count(*) AS n FROM o.x').get() })()", `{"n":0}`},
		{"ATTACH outside is refused", "err(() => new Database(':memory:').run(" + q("ATTACH DATABASE '"+seed+"' AS o") + "))", fsRefusal},
		{"ATTACH outside read-only from a read-only database", "(() => { const d = new Database('notes.db', { readonly: true }); d.run(" + q("ATTACH DATABASE '"+seed+"' AS o") + "); return d.query('SELECT v FROM o.s').get() })()", `{"v":"seeded"}`},
		{"ATTACH by a relative path is refused", "err(() => new Database(':memory:').run(\"ATTACH DATABASE 'rel.db' AS o\"))", `["Error",null,"ATTACH needs an absolute path here (rel.db): SQLite would take a relative one from the executor's folder, not the checkout"]`},
		{"VACUUM INTO outside is refused", "err(() => new Database(':memory:').run(" + q("VACUUM INTO '"+filepath.Join(outside, "copy.db")+"'") + "))", strings.ReplaceAll(fsRefusal, "seed.db", "copy.db")},
		{"VACUUM INTO inside", "(() => { new Database('notes.db').run(" + q("VACUUM INTO '"+filepath.Join(root, "copy.db")+"'") + "); return new Database('copy.db', { readonly: true }).query('SELECT v FROM n').values() })()", `[["x"]]`},
		{"a closed database closes with its last statement", "(() => { const fs = require('node:fs'); const d = new Database('z.db'); d.exec('PRAGMA journal_mode = WAL'); d.run('CREATE TABLE z (v)'); const st = d.prepare('SELECT count(*) AS n FROM z'); d.close(); const open = fs.existsSync('z.db-wal'); const r = st.get(); st.finalize(); return [open, r, fs.existsSync('z.db-wal')] })()", `[true,{"n":0},false]`},
		{"a file: URI is refused", "err(() => new Database('file:notes.db?mode=rwc'))", `["Error",null,"bun:sqlite here opens a file by its path, not by a file: URI (file:notes.db?mode=rwc)"]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if r := eval(s, "(() => { "+err+"return ("+c.code+") })()"); r != c.want {
				t.Errorf("%s\n got %s\nwant %s", c.code, r, c.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(outside, "copy.db")); err == nil {
		t.Error("VACUUM INTO wrote outside the workspace")
	}
}

// TestBunSQLiteClosedWithTheRuntime: a database a tool leaves open is
// closed when its runtime is thrown away (SQLite then folds the WAL file
// into the database and removes it).
func TestBunSQLiteClosedWithTheRuntime(t *testing.T) {
	root := project(t, map[string]string{"tools/e.ts": "import { Database } from 'bun:sqlite'\n" + tool(`execute() { const d = new Database('kept.db'); d.exec('PRAGMA journal_mode = WAL'); d.run('CREATE TABLE k (v)'); d.run('INSERT INTO k VALUES (1)'); return 'open' }`)})
	s, _ := loadTools(t, root, Options{Directory: root}, "tools/e.ts")
	mustLoad(t, s)
	if r := call(t, s, "e", "{}"); r.Output != "open" {
		t.Fatalf("call: %+v", r)
	}
	wal := filepath.Join(root, "kept.db-wal")
	if _, err := os.Stat(wal); err != nil {
		t.Fatalf("no WAL file while the database is open: %v", err)
	}
	s.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(wal); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the database left open was not closed when the set closed")
		}
		time.Sleep(10 * time.Millisecond) // polling the file system: nothing to wait on
	}
}

// TestBunSQLiteLimits: a query past the deadline is interrupted, and
// SQLite's memory is bounded by the call's limit.
func TestBunSQLiteLimits(t *testing.T) {
	root := project(t, map[string]string{
		"tools/loop.ts": "import { Database } from 'bun:sqlite'\nexport const timeout = 300\n" + tool(`execute() { return new Database(':memory:').query('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c').get() }`),
		"tools/big.ts":  "import { Database } from 'bun:sqlite'\n" + tool(`execute() { try { return new Database(':memory:').query("SELECT length(group_concat(randomblob(1000000))) AS n FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 40) SELECT x FROM c)").get() } catch (e) { return e.name + ': ' + e.message } }`),
	})
	s, _ := loadTools(t, root, Options{Directory: root, CallMemory: 16 << 20}, "tools/loop.ts", "tools/big.ts")
	mustLoad(t, s)
	start := time.Now()
	r := call(t, s, "loop", "{}")
	if !r.IsError || !strings.Contains(r.Output, "timed out") || time.Since(start) > 300*time.Millisecond+time.Second {
		t.Errorf("an endless query: %+v after %s", r, time.Since(start))
	}
	if r := call(t, s, "big", "{}"); !strings.HasPrefix(r.Output, "RangeError: SQLite is out of memory: a bun:sqlite database may use up to 16 MiB") {
		t.Errorf("a query over the memory limit: %+v", r)
	}
	if r := call(t, s, "loop", "{}"); !r.IsError || !strings.Contains(r.Output, "timed out") {
		t.Errorf("a second endless query: %+v", r)
	}
}
