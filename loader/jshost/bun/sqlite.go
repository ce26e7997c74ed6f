package bun

import (
	"context"
	_ "embed"
	"errors"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/ncruces/go-sqlite3"

	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/loader/jshost/rt"
)

//go:embed js/sqlite.js
var sqliteJS string

var sqliteProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:sqlite.js", sqliteJS, true) })

// maxDatabases bounds the databases one runtime holds open: each is a
// SQLite of its own, whose memory (up to the call's limit) the watchdog,
// which measures the Go heap, does not see. Databases a tool dropped
// without closing them are closed once the Go GC finds them unreachable,
// as Bun's GC does; at the limit a collection is forced first.
const maxDatabases = 16

// reapWait is how long an open at the limit waits for the collection it
// forced to hand over the databases it found unreachable.
const reapWait = 100 * time.Millisecond

// sqliteOpenFlags are the SQLITE_OPEN_* bits js/sqlite.js passes.
const (
	openReadOnly  = int(sqlite3.OPEN_READONLY)
	openReadWrite = int(sqlite3.OPEN_READWRITE)
	openCreate    = int(sqlite3.OPEN_CREATE)
)

type sqliteKey struct{}

// sqliteState is bun:sqlite in one runtime: the module and the open
// databases, closed when the runtime is discarded.
type sqliteState struct {
	r        *rt.Runtime
	module   goja.Value
	errClass goja.Value // js/sqlite.js's SQLiteError
	open     map[*database]bool

	mu      sync.Mutex
	dropped []*database   // unreachable from JS (runtime.AddCleanup), to close on the runtime's goroutine
	reaped  chan struct{} // signalled when dropped grows

	// interrupt is the context a statement runs under: done when the host
	// stops the call (its deadline) or the call ends. Made once per call.
	interrupt      context.Context
	interruptFor   <-chan struct{}
	interruptOfRun context.Context
	cancel         context.CancelFunc
}

// dbHandle is what js/sqlite.js holds for a database: once neither the
// Database object nor any of its statements can reach it, the database
// is closed (runtime.AddCleanup).
type dbHandle struct{ db *database }

// database is one open connection and the statements prepared on it.
type database struct {
	conn     *sqlite3.Conn // nil once closed and its last statement finalized
	closed   bool          // db.close() was called
	readonly bool
	// stmts are its statements not yet finalized, by SQLite's handle (not
	// by *statement: that holds the dbHandle, which must stay unreachable
	// from here for its cleanup to run).
	stmts map[*sqlite3.Stmt]bool
	// denied is a file the authorizer refused to ATTACH: the statement
	// then fails with the policy's own error rather than "not authorized".
	denied *deniedFile
}

type deniedFile struct {
	path   string
	access policy.Access
	why    string // when the policy is not the reason
}

func sqliteOf(r *rt.Runtime) *sqliteState {
	return rt.Local(r, sqliteKey{}, func() *sqliteState {
		s := &sqliteState{r: r, open: map[*database]bool{}, reaped: make(chan struct{}, 1)}
		r.OnClose(s.closeAll)
		return s
	})
}

// sqliteModule is bun:sqlite: js/sqlite.js over the bindings below.
func sqliteModule(r *rt.Runtime) goja.Value {
	s := sqliteOf(r)
	if s.module != nil {
		return s.module
	}
	vm := r.VM
	fv, err := vm.RunProgram(sqliteProgram())
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(fv)
	m, err := fn(goja.Undefined(), s.natives())
	if err != nil {
		panic(err)
	}
	s.module = m
	s.errClass = m.ToObject(vm).Get("SQLiteError")
	return m
}

func (s *sqliteState) natives() *goja.Object {
	n := s.r.VM.NewObject()
	for name, f := range map[string]any{
		"open": s.openDB, "close": s.closeDB, "inTransaction": s.inTransaction, "exec": s.exec,
		"prepare": s.prepare, "finalize": s.finalize, "run": s.run, "rows": s.rows, "start": s.start, "next": s.next,
		"columns": s.columns, "declaredTypes": s.declaredTypes, "columnTypes": s.columnTypes,
		"paramsCount": s.paramsCount, "expanded": s.expanded, "readonly": s.readonlyStmt,
	} {
		if err := n.Set(name, f); err != nil {
			panic(err)
		}
	}
	return n
}

// openDB opens filename (":memory:" and "" are SQLite's own databases)
// with js/sqlite.js's flags. A file goes through the host's policy as
// node:fs's open does: read-only needs read access, else read and write.
func (s *sqliteState) openDB(filename string, flags int) *dbHandle {
	defer s.outOfMemory()
	s.reap()
	// A collection may leave a dropped database for the next one (goja's
	// own references to recent values): a few tries.
	for try := 0; try < 3 && len(s.open) >= maxDatabases; try++ {
		runtime.GC()
		select {
		case <-s.reaped:
		case <-time.After(reapWait):
		}
		s.reap()
	}
	if len(s.open) >= maxDatabases {
		panic(s.error("this tool has " + itoa(maxDatabases) + " bun:sqlite databases open: close the ones it is done with (db.close())"))
	}
	name := filename
	if filename != "" && filename != ":memory:" {
		if strings.HasPrefix(filename, "file:") {
			panic(s.error("bun:sqlite here opens a file by its path, not by a file: URI (" + filename + ")"))
		}
		access := policy.Read
		mode := "ro"
		if flags&openReadWrite != 0 {
			access |= policy.Write
			mode = "rw"
			if flags&openCreate != 0 {
				mode = "rwc"
			}
		}
		path := s.r.Path(filename, access, "open")
		// A URI says the mode (OpenContext has no flags); the path is
		// escaped, so nothing in it is read as URI syntax.
		name = (&url.URL{Scheme: "file", Path: path, RawQuery: "mode=" + mode}).String()
	}
	ctx := context.Background()
	if limit := s.r.Host.CallMemory; limit > 0 {
		// SQLite's heap is the connection's own linear memory: bounded
		// to the call's limit, whatever the SQL does.
		ctx = sqlite3.WithMaxMemory(ctx, int64(min(limit, 1<<32)))
	}
	conn, err := sqlite3.OpenContext(ctx, name)
	if err != nil {
		s.failOpen(err)
	}
	db := &database{conn: conn, readonly: flags&openReadWrite == 0, stmts: map[*sqlite3.Stmt]bool{}}
	if err := conn.SetAuthorizer(db.authorize(s.r)); err != nil {
		_ = conn.Close()
		s.fail(err, "")
	}
	s.open[db] = true
	h := &dbHandle{db}
	runtime.AddCleanup(h, s.drop, db)
	return h
}

// drop runs on the GC's cleanup goroutine: it queues db for reap.
func (s *sqliteState) drop(db *database) {
	s.mu.Lock()
	s.dropped = append(s.dropped, db)
	s.mu.Unlock()
	select {
	case s.reaped <- struct{}{}:
	default:
	}
}

// reap closes the databases the tool can no longer reach.
func (s *sqliteState) reap() {
	s.mu.Lock()
	dropped := s.dropped
	s.dropped = nil
	s.mu.Unlock()
	for _, db := range dropped {
		s.closeAll1(db)
	}
}

// authorize refuses what would reach files past the policy: ATTACH of a
// file (VACUUM INTO attaches its target the same way) must name it by an
// absolute path the policy lets the tool write (or read, on a read-only
// database); a relative path would be taken from the executor's folder.
func (db *database) authorize(r *rt.Runtime) func(sqlite3.AuthorizerActionCode, string, string, string, string) sqlite3.AuthorizerReturnCode {
	return func(action sqlite3.AuthorizerActionCode, name3rd, _, _, _ string) sqlite3.AuthorizerReturnCode {
		if action != sqlite3.AUTH_ATTACH || name3rd == "" || name3rd == ":memory:" {
			return sqlite3.AUTH_OK
		}
		access := policy.Read | policy.Write
		if db.readonly {
			access = policy.Read
		}
		switch {
		case strings.HasPrefix(name3rd, "file:"):
			db.denied = &deniedFile{path: name3rd, why: "ATTACH takes a file's path here, not a file: URI (" + name3rd + ")"}
		case !filepath.IsAbs(name3rd):
			db.denied = &deniedFile{path: name3rd, why: "ATTACH needs an absolute path here (" + name3rd + "): SQLite would take a relative one from the executor's folder, not the checkout"}
		default:
			if _, err := r.Host.Policy.Check(name3rd, access); err == nil {
				return sqlite3.AUTH_OK
			}
			db.denied = &deniedFile{path: name3rd, access: access}
		}
		return sqlite3.AUTH_DENY
	}
}

// error is a plain Error, as Bun throws for what is not SQLite's.
func (s *sqliteState) error(msg string) *goja.Object {
	vm := s.r.VM
	e, err := vm.New(vm.Get("Error"), vm.ToValue(msg))
	if err != nil {
		return vm.NewGoError(errors.New(msg))
	}
	return e
}

func (s *sqliteState) live(db *database) *database {
	if db.closed {
		panic(s.r.RangeError("Cannot use a closed database"))
	}
	return db
}

// closeDB closes the database for the tool: as with SQLite's close_v2
// (Bun's), the connection itself lives on until its last statement is
// finalized. Closing a closed database does nothing, as in Bun.
func (s *sqliteState) closeDB(h *dbHandle) {
	db := h.db
	if db.closed {
		return
	}
	db.closed = true
	s.release(db)
}

// release closes a closed database's connection once no statement uses it.
func (s *sqliteState) release(db *database) {
	if db.closed && len(db.stmts) == 0 && db.conn != nil {
		closeQuietly(db.conn)
		db.conn = nil
		delete(s.open, db)
	}
}

// closeQuietly closes a statement or connection whatever state SQLite is
// in: after it ran out of memory, the library panics on every error.
func closeQuietly(c interface{ Close() error }) {
	defer func() {
		if p := recover(); p != nil && !isOutOfMemory(p) {
			panic(p)
		}
	}()
	_ = c.Close()
}

func isOutOfMemory(p any) bool {
	err, ok := p.(error)
	return ok && err.Error() == "sqlite3: out of memory"
}

// closeAll closes every database and statement: the runtime is gone.
func (s *sqliteState) closeAll() {
	for db := range s.open {
		s.closeAll1(db)
	}
	if s.cancel != nil {
		s.cancel()
	}
}

// closeAll1 closes db and its statements, whoever still holds them.
func (s *sqliteState) closeAll1(db *database) {
	for stmt := range db.stmts { // no statement of db can run again: the runtime is gone, or they are unreachable
		closeQuietly(stmt)
	}
	db.stmts = map[*sqlite3.Stmt]bool{}
	db.closed = true
	s.release(db)
}

func (s *sqliteState) inTransaction(h *dbHandle) bool {
	return !s.live(h.db).conn.GetAutocommit()
}

// guard sets the connection to stop when the call does: a query that
// runs past the deadline is interrupted (Go code cannot be, otherwise).
func (s *sqliteState) guard(db *database) {
	stopped, run := s.r.Loop.Stopped(), s.r.Loop.Context()
	if s.interrupt == nil || s.interruptFor != stopped || s.interruptOfRun != run {
		if s.cancel != nil {
			s.cancel()
		}
		ctx, cancel := context.WithCancel(run)
		if stopped != nil {
			go func() {
				select {
				case <-stopped:
					cancel()
				case <-ctx.Done():
				}
			}()
		}
		s.interrupt, s.interruptFor, s.interruptOfRun, s.cancel = ctx, stopped, run, cancel
	}
	db.conn.SetInterrupt(s.interrupt)
	db.denied = nil
}

// exec runs every statement of sql (the bindings go to the first) and
// answers Bun's { changes, lastInsertRowid } of them all.
func (s *sqliteState) exec(h *dbHandle, sql string, kind int, params goja.Value, strict bool) goja.Value {
	defer s.outOfMemory()
	db := h.db
	s.guard(s.live(db))
	before := db.conn.TotalChanges()
	first, ran := true, false
	for {
		stmt, tail, err := db.conn.Prepare(sql)
		if err != nil {
			s.failOn(db, err, sql)
		}
		if stmt == nil {
			break
		}
		ran = true
		if first {
			s.bind(db, stmt, kind, params, strict)
			first = false
		}
		for stmt.Step() {
		}
		err = stmt.Err()
		_ = stmt.Close()
		if err != nil {
			s.failOn(db, err, sql)
		}
		sql = tail
	}
	if !ran {
		panic(s.error("Query contained no valid SQL statement; likely empty query."))
	}
	return s.changes(db, db.conn.TotalChanges()-before)
}

func (s *sqliteState) changes(db *database, n int64) goja.Value {
	o := s.r.VM.NewObject()
	_ = o.Set("changes", n)
	_ = o.Set("lastInsertRowid", s.number(db.conn.LastInsertRowID()))
	return o
}

// fail throws err as Bun's SQLiteError: SQLite's own message, code
// ("SQLITE_CONSTRAINT_UNIQUE"), errno (the extended code) and byteOffset
// (where in sql the error is, or -1).
func (s *sqliteState) fail(err error, sql string) {
	var se *sqlite3.Error
	if !errors.As(err, &se) {
		var code sqlite3.ErrorCode
		if errors.As(err, &code) { // the library's own (INTERRUPT, TOOBIG)
			s.throw(strings.TrimPrefix(code.Error(), "sqlite3: "), sqlite3.ExtendedErrorCode(code), -1)
		}
		panic(s.r.VM.NewGoError(err))
	}
	msg := se.Error()
	if sys := se.Unwrap(); sys != nil { // the OS's words, which Bun does not add
		msg = strings.TrimSuffix(msg, ": "+sys.Error())
	}
	if prefix := se.ExtendedCode().Error(); msg == prefix {
		msg = strings.TrimPrefix(msg, "sqlite3: ")
	} else {
		msg = strings.TrimPrefix(msg, prefix+": ")
	}
	offset := -1
	if q := se.SQL(); q != "" && strings.HasSuffix(sql, q) {
		offset = len(sql) - len(q)
	}
	s.throw(msg, se.ExtendedCode(), offset)
}

func (s *sqliteState) throw(msg string, code sqlite3.ExtendedErrorCode, offset int) {
	vm := s.r.VM
	name, ok := sqliteCodes[code]
	if !ok {
		name = sqliteCodes[sqlite3.ExtendedErrorCode(sqlite3.ErrorCode(code))]
	}
	e, err := vm.New(s.errClass, vm.ToValue(msg))
	if err != nil {
		panic(err)
	}
	_ = e.Set("code", name)
	_ = e.Set("errno", int(code))
	_ = e.Set("byteOffset", offset)
	panic(e)
}

// failOpen is fail for an open that failed: Bun has no extended codes
// until a database is open (SQLITE_CANTOPEN, not SQLITE_CANTOPEN_FULLPATH).
func (s *sqliteState) failOpen(err error) {
	var se *sqlite3.Error
	if errors.As(err, &se) {
		s.throw(strings.TrimPrefix(se.Code().Error(), "sqlite3: "), sqlite3.ExtendedErrorCode(se.Code()), -1)
	}
	s.fail(err, "")
}

// failOn is fail, but a statement the authorizer refused throws why: the
// policy's EACCES error, as node:fs would, or the reason it gave.
func (s *sqliteState) failOn(db *database, err error, sql string) {
	if d := db.denied; d != nil && errors.Is(err, sqlite3.AUTH) {
		db.denied = nil
		if d.why != "" {
			panic(s.error(d.why))
		}
		s.r.Path(d.path, d.access, "open")
	}
	s.fail(err, sql)
}

// outOfMemory turns the library's panic when SQLite's memory is used up
// into a RangeError the tool can read; other panics go on.
func (s *sqliteState) outOfMemory() {
	if p := recover(); p != nil {
		if isOutOfMemory(p) {
			limit := min(s.r.Host.CallMemory, 1<<32) // WithMaxMemory's most
			if limit == 0 {
				limit = 256 << 20 // the library's default
			}
			panic(s.r.RangeError("SQLite is out of memory: a bun:sqlite database may use up to " + rt.Bytes(limit) + " (the tool's memory limit)"))
		}
		panic(p)
	}
}
