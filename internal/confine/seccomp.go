package confine

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock's TCP rules (ABI 4) do not cover Multipath TCP sockets, and UDP
// only from ABI 10; raw and packet sockets not at all. So a confined
// process that may not reach the network gets a seccomp filter too: it may
// create Unix sockets only (or, with ConnectTCP, plain TCP ones, which
// Landlock then holds to the ports listed), never an io_uring (which can
// make sockets of its own), and no system call of another ABI (x32, or
// 32-bit compat, where socketcall(2) would go round the filter).

// seccomp_data offsets: nr, arch, then the arguments (low 32 bits first).
const (
	offNR   = 0
	offArch = 4
	offArg0 = 16
	offArg1 = 24
	offArg2 = 32
	x32Bit  = 0x40000000
)

func stmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }

func jump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

// socketFilter is the BPF program; tcp allows AF_INET and AF_INET6 stream
// sockets of plain TCP as well.
func socketFilter(tcp bool) ([]unix.SockFilter, error) {
	if auditArch == 0 {
		return nil, errors.New("confine: no socket filter for this architecture: only amd64 and arm64")
	}
	const (
		ld  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		and = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
		ret = unix.BPF_RET | unix.BPF_K
	)
	allow := stmt(ret, unix.SECCOMP_RET_ALLOW)
	deny := stmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES))
	p := []unix.SockFilter{
		stmt(ld, offArch),
		jump(jeq, auditArch, 1, 0),
		deny, // another ABI's system call
		stmt(ld, offNR),
		jump(jge, x32Bit, 0, 1),
		deny, // an x32 system call
		jump(jeq, unix.SYS_IO_URING_SETUP, 0, 1),
		deny,
		jump(jeq, unix.SYS_SOCKET, 1, 0),
		allow, // anything else: Landlock and the rest of the policy decide
		stmt(ld, offArg0),
		jump(jeq, unix.AF_UNIX, 0, 1),
		allow,
	}
	if tcp {
		// AF_INET or AF_INET6, SOCK_STREAM (flags masked off), protocol 0
		// or IPPROTO_TCP: Landlock's port rules apply to these.
		p = append(p,
			jump(jeq, unix.AF_INET, 1, 0),
			jump(jeq, unix.AF_INET6, 0, 7),
			stmt(ld, offArg1),
			stmt(and, 0xf),
			jump(jeq, unix.SOCK_STREAM, 0, 4),
			stmt(ld, offArg2),
			jump(jeq, 0, 1, 0),
			jump(jeq, unix.IPPROTO_TCP, 0, 1),
			allow,
		)
	}
	return append(p, deny), nil
}

// filterSockets installs socketFilter on every thread of the process
// (no_new_privs is set already, by Landlock's restriction).
func filterSockets(tcp bool) error {
	p, err := socketFilter(tcp)
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(p)), Filter: &p[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	if errno != 0 {
		return fmt.Errorf("confine: install the socket filter (seccomp): %w", errno)
	}
	return nil
}
