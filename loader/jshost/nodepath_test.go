package jshost

import (
	"strings"
	"testing"
)

// TestPathWin32LikeNode: path.win32 answers what Node 20 prints on Linux
// for every function, odd inputs included (the wants are Node's output).
func TestPathWin32LikeNode(t *testing.T) {
	checkLikeNode(t, "import path from 'node:path'", []nodeCase{
		{`path.win32.join('a', '..', 'b', 'c.txt')`, `"b\\c.txt"`},
		{`path.win32.join('C:\\a', 'b/c', '..\\d')`, `"C:\\a\\b\\d"`},
		{`path.win32.join('//server', 'share', 'x')`, `"\\\\server\\share\\x"`},
		{`path.win32.join('\\\\server\\share', '..', 'y')`, `"\\\\server\\share\\y"`},
		{`path.win32.join('', '')`, `"."`},
		{`path.win32.join('/a/', '//b')`, `"\\a\\b"`},
		{`path.win32.join('C:', 'a')`, `"C:\\a"`},
		{`path.win32.normalize('C:\\a\\..\\..\\b\\')`, `"C:\\b\\"`},
		{`path.win32.normalize('C:a\\..\\..\\b')`, `"C:..\\b"`},
		{`path.win32.normalize('\\\\server\\share\\a\\..')`, `"\\\\server\\share\\"`},
		{`path.win32.normalize('//server/share')`, `"\\\\server\\share\\"`},
		{`path.win32.normalize('\\\\?\\C:\\x\\..\\y')`, `"\\\\?\\C:\\y"`},
		{`path.win32.normalize('c:/x//y/./z/')`, `"c:\\x\\y\\z\\"`},
		{`path.win32.normalize('')`, `"."`},
		{`path.win32.normalize('.\\')`, `".\\"`},
		{`path.win32.normalize('a:')`, `"a:."`},
		{`path.win32.normalize('COM1:x')`, `".\\COM1:x"`},
		{`path.win32.normalize('CON')`, `"CON"`},
		{`path.win32.resolve('C:\\a', 'b', '..\\c')`, `"C:\\a\\c"`},
		{`path.win32.resolve('C:\\a', 'D:\\b', 'c')`, `"D:\\b\\c"`},
		{`path.win32.resolve('\\\\server\\share\\x', '..\\y')`, `"\\\\server\\share\\y"`},
		{`path.win32.resolve('C:\\a', '\\b')`, `"C:\\b"`},
		{`path.win32.resolve('C:\\x', 'C:y')`, `"C:\\x\\y"`},
		{`path.win32.resolve('c:/ignore', 'c:/some/file')`, `"c:\\some\\file"`},
		{`path.win32.relative('C:\\orandea\\test\\aaa', 'C:\\orandea\\impl\\bbb')`, `"..\\..\\impl\\bbb"`},
		{`path.win32.relative('C:\\a', 'D:\\b')`, `"D:\\b"`},
		{`path.win32.relative('C:\\A\\b', 'c:\\a\\B\\c')`, `"c"`},
		{`path.win32.relative('C:\\a\\b', 'C:\\a')`, `".."`},
		{`path.win32.relative('C:\\', 'C:\\a\\b')`, `"a\\b"`},
		{`path.win32.relative('\\\\server\\share\\a', '\\\\server\\share\\b')`, `"..\\b"`},
		{`path.win32.relative('C:\\same', 'C:\\same')`, `""`},
		{`path.win32.parse('C:\\path\\dir\\file.txt')`, `{"root":"C:\\","dir":"C:\\path\\dir","base":"file.txt","ext":".txt","name":"file"}`},
		{`path.win32.parse('\\\\server\\share\\file')`, `{"root":"\\\\server\\share\\","dir":"\\\\server\\share\\","base":"file","ext":"","name":"file"}`},
		{`path.win32.parse('C:')`, `{"root":"C:","dir":"C:","base":"","ext":"","name":""}`},
		{`path.win32.parse('C:\\')`, `{"root":"C:\\","dir":"C:\\","base":"","ext":"","name":""}`},
		{`path.win32.parse('file')`, `{"root":"","dir":"","base":"file","ext":"","name":"file"}`},
		{`path.win32.parse('.hidden')`, `{"root":"","dir":"","base":".hidden","ext":"","name":".hidden"}`},
		{`path.win32.parse('a.b.c')`, `{"root":"","dir":"","base":"a.b.c","ext":".c","name":"a.b"}`},
		{`path.win32.parse('C:abc\\..')`, `{"root":"C:","dir":"C:abc","base":"..","ext":"","name":".."}`},
		{`path.win32.parse('')`, `{"root":"","dir":"","base":"","ext":"","name":""}`},
		{`path.win32.format({ root: 'C:\\', dir: 'C:\\path\\dir', base: 'file.txt' })`, `"C:\\path\\dir\\file.txt"`},
		{`path.win32.format({ root: 'C:\\', name: 'file', ext: 'txt' })`, `"C:\\file.txt"`},
		{`path.win32.format({ dir: 'x', name: 'y', ext: '.z' })`, `"x\\y.z"`},
		{`path.win32.format({})`, `""`},
		{`path.win32.basename('C:\\dir\\file.txt')`, `"file.txt"`},
		{`path.win32.basename('C:\\dir\\file.txt', '.txt')`, `"file"`},
		{`path.win32.basename('C:\\dir\\file.TXT', '.txt')`, `"file.TXT"`},
		{`path.win32.basename('C:\\dir\\')`, `"dir"`},
		{`path.win32.basename('C:')`, `""`},
		{`path.win32.basename('C:file')`, `"file"`},
		{`path.win32.basename('/posix/style.js')`, `"style.js"`},
		{`path.win32.basename('aaa', 'a')`, `"aa"`},
		{`path.win32.basename('\\\\server\\share\\')`, `"share"`},
		{`path.win32.dirname('C:\\dir\\file.txt')`, `"C:\\dir"`},
		{`path.win32.dirname('C:\\')`, `"C:\\"`},
		{`path.win32.dirname('C:file')`, `"C:"`},
		{`path.win32.dirname('\\\\server\\share\\x')`, `"\\\\server\\share\\"`},
		{`path.win32.dirname('\\\\server\\share')`, `"\\\\server\\share"`},
		{`path.win32.dirname('file')`, `"."`},
		{`path.win32.dirname('a/b/')`, `"a"`},
		{`path.win32.extname('C:\\dir\\file.tar.gz')`, `".gz"`},
		{`path.win32.extname('.profile')`, `""`},
		{`path.win32.extname('x.')`, `"."`},
		{`path.win32.extname('C:\\dir.d\\file')`, `""`},
		{`path.win32.isAbsolute('C:\\x')`, `true`},
		{`path.win32.isAbsolute('C:x')`, `false`},
		{`path.win32.isAbsolute('\\\\server')`, `true`},
		{`path.win32.isAbsolute('/x')`, `true`},
		{`path.win32.isAbsolute('x\\y')`, `false`},
		{`path.win32.toNamespacedPath('C:\\x\\y')`, `"\\\\?\\C:\\x\\y"`},
		{`path.win32.toNamespacedPath('\\\\server\\share\\x')`, `"\\\\?\\UNC\\server\\share\\x"`},
		{`path.win32.toNamespacedPath('\\\\?\\C:\\x')`, `"\\\\?\\C:\\x"`},
		{`path.win32.toNamespacedPath('')`, `""`},
		{`path.win32.toNamespacedPath(5)`, `5`},
		{`[path.win32.sep, path.win32.delimiter]`, `["\\",";"]`},
		{`path.win32.posix === path.posix`, `true`},
		{`path.win32.win32 === path.win32`, `true`},
		{`path.posix === path`, `true`},
		{`path.posix.win32 === path.win32`, `true`},
		{`path.win32.join('a', 1)`, `throws TypeError`},
		{`path.win32.basename(null)`, `throws TypeError`},
		{`path.win32.format(null)`, `throws TypeError`},
		{`(() => { try { path.win32.join('a', 1) } catch (e: any) { return [e.code, e.message] } })()`, `["ERR_INVALID_ARG_TYPE","The \"path\" argument must be of type string. Received type number (1)"]`},
	})
}

// TestPathWin32ResolvesFromTheCheckout: a relative win32.resolve starts
// from the checkout, as Node's starts from its posix cwd on Linux
// ('/work/x' is '\work\x'), and the path/posix and path/win32 modules are
// path.posix and path.win32.
func TestPathWin32ResolvesFromTheCheckout(t *testing.T) {
	root := project(t, map[string]string{"tools/p.ts": `import path from 'node:path'
import posix from 'node:path/posix'
import win32 from 'node:path/win32'
export default { description: 'p', parameters: { type: 'object' }, execute: () => JSON.stringify([
  path.win32.resolve('a', 'b'), path.win32.resolve(''), path.win32.relative('x', 'y\\z'),
  posix === path.posix, win32 === path.win32]) }`})
	s, _ := loadTools(t, root, Options{}, "tools/p.ts")
	mustLoad(t, s)
	r := call(t, s, "p", "{}")
	w := strings.ReplaceAll(strings.ReplaceAll(root, "\\", "\\\\"), "/", `\\`)
	want := `["` + w + `\\a\\b","` + w + `","..\\y\\z",true,true]`
	if r.IsError || r.Output != want {
		t.Fatalf("got %s\nwant %s", r.Output, want)
	}
}
