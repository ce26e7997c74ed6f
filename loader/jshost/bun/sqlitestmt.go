package bun

import (
	"math"
	"math/big"
	"reflect"
	"strconv"

	"github.com/dop251/goja"
	"github.com/ncruces/go-sqlite3"
)

// statement is one prepared statement of a database.
type statement struct {
	h    *dbHandle // keeps the database open while the statement can run
	db   *database
	s    *sqlite3.Stmt // nil once finalized
	sql  string
	cols []string
}

// Binding kinds js/sqlite.js passes: no bindings, a list, an object.
const (
	bindNone = iota
	bindList
	bindNamed
)

func itoa(n int) string { return strconv.Itoa(n) }

// prepare compiles the first statement of sql; null when sql holds none.
func (s *sqliteState) prepare(h *dbHandle, sql string) goja.Value {
	defer s.outOfMemory()
	db := h.db
	s.guard(s.live(db))
	stmt, _, err := db.conn.Prepare(sql)
	if err != nil {
		s.failOn(db, err, sql)
	}
	if stmt == nil {
		return goja.Null()
	}
	st := &statement{h: h, db: db, s: stmt, sql: sql, cols: make([]string, stmt.ColumnCount())}
	for i := range st.cols {
		st.cols[i] = stmt.ColumnName(i)
	}
	db.stmts[stmt] = true
	return s.r.VM.ToValue(st)
}

func (s *sqliteState) stmtOf(st *statement) *sqlite3.Stmt {
	if st.s == nil {
		panic(s.error("Statement has finalized"))
	}
	return st.s
}

func (s *sqliteState) finalize(st *statement) {
	if st.s != nil {
		closeQuietly(st.s)
		delete(st.db.stmts, st.s)
		st.s = nil
		s.release(st.db)
	}
}

func (s *sqliteState) columns(st *statement) []string { s.stmtOf(st); return st.cols }

func (s *sqliteState) paramsCount(st *statement) int { return s.stmtOf(st).BindCount() }

func (s *sqliteState) expanded(st *statement) string { return s.stmtOf(st).ExpandedSQL() }

func (s *sqliteState) readonlyStmt(st *statement) bool { return s.stmtOf(st).ReadOnly() }

func (s *sqliteState) declaredTypes(st *statement) []any {
	stmt := s.stmtOf(st)
	out := make([]any, len(st.cols))
	for i := range out {
		if t := stmt.ColumnDeclType(i); t != "" {
			out[i] = t
		}
	}
	return out
}

// columnTypes are the types of the current row's values ("NULL" before
// a row was read), as Bun answers them.
func (s *sqliteState) columnTypes(st *statement) []string {
	stmt := s.stmtOf(st)
	out := make([]string, len(st.cols))
	for i := range out {
		out[i] = "NULL"
		if stmt.Busy() {
			out[i] = [...]string{"NULL", "INTEGER", "FLOAT", "TEXT", "BLOB", "NULL"}[stmt.ColumnType(i)]
		}
	}
	return out
}

// run executes the statement to its end: Bun's { changes, lastInsertRowid }.
func (s *sqliteState) run(st *statement, kind int, params goja.Value, strict bool) goja.Value {
	defer s.outOfMemory()
	stmt := s.begin(st, kind, params, strict)
	before := st.db.conn.TotalChanges()
	for stmt.Step() {
	}
	s.end(st)
	return s.changes(st.db, st.db.conn.TotalChanges()-before)
}

// rows reads up to limit rows (all when limit < 0) as objects or, with
// asArrays, as arrays of the values.
func (s *sqliteState) rows(st *statement, kind int, params goja.Value, strict bool, asArrays bool, limit int, safe bool) []any {
	defer s.outOfMemory()
	stmt := s.begin(st, kind, params, strict)
	out := []any{}
	for (limit < 0 || len(out) < limit) && stmt.Step() {
		out = append(out, s.row(st, asArrays, safe))
	}
	s.end(st)
	return out
}

// start binds the statement for iterate; next reads one row at a time.
func (s *sqliteState) start(st *statement, kind int, params goja.Value, strict bool) {
	defer s.outOfMemory()
	s.begin(st, kind, params, strict)
}

func (s *sqliteState) next(st *statement, safe bool) goja.Value {
	defer s.outOfMemory()
	stmt := s.stmtOf(st)
	s.guard(st.db)
	if stmt.Step() {
		return s.r.VM.ToValue(s.row(st, false, safe))
	}
	s.end(st)
	return goja.Null()
}

// begin resets the statement and binds the call's values.
func (s *sqliteState) begin(st *statement, kind int, params goja.Value, strict bool) *sqlite3.Stmt {
	stmt := s.stmtOf(st)
	s.guard(st.db) // a closed database's statements still run, as in Bun
	_ = stmt.Reset()
	if err := stmt.ClearBindings(); err != nil {
		s.fail(err, st.sql)
	}
	s.bind(st.db, stmt, kind, params, strict)
	return stmt
}

// end resets the statement and throws the error its steps met.
func (s *sqliteState) end(st *statement) {
	if err := st.s.Reset(); err != nil {
		s.failOn(st.db, err, st.sql)
	}
}

func (s *sqliteState) row(st *statement, asArrays, safe bool) any {
	stmt := st.s
	if asArrays {
		vals := make([]any, len(st.cols))
		for i := range vals {
			vals[i] = s.column(stmt, i, safe)
		}
		return vals
	}
	o := s.r.VM.NewObject()
	for i, name := range st.cols {
		_ = o.Set(name, s.column(stmt, i, safe))
	}
	return o
}

// maxSafe is Number.MAX_SAFE_INTEGER.
const maxSafe = 1<<53 - 1

// column is one value as Bun gives it: integers as numbers (bigints with
// safeIntegers), BLOBs as Uint8Arrays.
func (s *sqliteState) column(stmt *sqlite3.Stmt, i int, safe bool) goja.Value {
	vm := s.r.VM
	switch stmt.ColumnType(i) {
	case sqlite3.INTEGER:
		n := stmt.ColumnInt64(i)
		if safe {
			return vm.ToValue(big.NewInt(n))
		}
		return s.number(n)
	case sqlite3.FLOAT:
		return vm.ToValue(stmt.ColumnFloat(i))
	case sqlite3.TEXT:
		return vm.ToValue(stmt.ColumnText(i))
	case sqlite3.BLOB:
		return s.r.Uint8Array(stmt.ColumnBlob(i, nil))
	}
	return goja.Null()
}

// number is an integer as a JS number: past 2^53 it is the nearest
// double, as in Bun (goja would keep all 64 bits).
func (s *sqliteState) number(n int64) goja.Value {
	if n > maxSafe || n < -maxSafe {
		return s.r.VM.ToValue(float64(n)) // goja keeps it an integer, but now the rounded one
	}
	return s.r.VM.ToValue(n)
}

// bind gives the statement the call's values: a list by position, an
// object by name ($x, :x, @x; the name without its prefix too). In strict
// mode a name the object lacks is an error; otherwise it binds NULL.
func (s *sqliteState) bind(db *database, stmt *sqlite3.Stmt, kind int, params goja.Value, strict bool) {
	vm := s.r.VM
	count := stmt.BindCount()
	switch kind {
	case bindList:
		list := params.ToObject(vm)
		n := int(list.Get("length").ToInteger())
		if n != count {
			panic(s.error("SQLite query expected " + itoa(count) + " values, received " + itoa(n)))
		}
		for i := range n {
			s.bindValue(db, stmt, i+1, list.Get(itoa(i)))
		}
	case bindNamed:
		o := params.ToObject(vm)
		for i := 1; i <= count; i++ {
			name := stmt.BindName(i)
			if name == "" { // an anonymous ?: nothing in an object names it
				continue
			}
			v := o.Get(name)
			if v == nil && len(name) > 1 {
				v = o.Get(name[1:])
			}
			if v == nil {
				if strict {
					panic(s.error("Missing parameter \"" + name[1:] + "\""))
				}
				continue
			}
			s.bindValue(db, stmt, i, v)
		}
	}
}

func (s *sqliteState) bindValue(db *database, stmt *sqlite3.Stmt, i int, v goja.Value) {
	var err error
	if goja.IsNull(v) || goja.IsUndefined(v) {
		if err := stmt.BindNull(i); err != nil {
			s.fail(err, "")
		}
		return
	}
	switch x := v.Export().(type) {
	case bool:
		err = stmt.BindBool(i, x)
	case int64:
		if x > maxSafe || x < -maxSafe {
			err = stmt.BindFloat(i, float64(x))
		} else {
			err = stmt.BindInt64(i, x)
		}
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= maxSafe && !(x == 0 && math.Signbit(x)) {
			err = stmt.BindInt64(i, int64(x))
		} else {
			err = stmt.BindFloat(i, x)
		}
	case *big.Int:
		if !x.IsInt64() {
			panic(s.r.RangeError("BigInt value '" + x.String() + "' is out of range: SQLite integers are 64-bit"))
		}
		err = stmt.BindInt64(i, x.Int64())
	case string:
		err = stmt.BindText(i, x)
	case []byte:
		err = stmt.BindBlob(i, x)
	case goja.ArrayBuffer:
		err = stmt.BindBlob(i, x.Bytes())
	default:
		b, ok := viewBytes(v)
		if !ok {
			panic(s.r.VM.NewTypeError("Binding expected string, TypedArray, boolean, number, bigint or null"))
		}
		err = stmt.BindBlob(i, b)
	}
	if err != nil {
		s.fail(err, "")
	}
}

// viewBytes are the bytes of a typed array or DataView other than a
// Uint8Array (goja exports those as slices of their element type).
func viewBytes(v goja.Value) ([]byte, bool) {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	if k := reflect.TypeOf(o.Export()); k == nil || k.Kind() != reflect.Slice && k.Name() != "DataView" {
		return nil, false
	}
	ab, ok := o.Get("buffer").Export().(goja.ArrayBuffer)
	if !ok {
		return nil, false
	}
	off, n := o.Get("byteOffset").ToInteger(), o.Get("byteLength").ToInteger()
	return ab.Bytes()[off : off+n], true
}
