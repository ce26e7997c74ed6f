package release

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// packReader decodes objects of a packSet; one goroutine uses it at a time.
type packReader struct {
	ps *packSet
	zr io.ReadCloser // reset for each object
	br bytes.Reader

	// chunk holds bytes [chunkAt, chunkAt+len(chunk)) of chunkPack, read
	// at once for a run of objects; scratch holds one object read alone.
	chunkPack *packFile
	chunkAt   int64
	chunk     []byte
	scratch   []byte
}

// loadChunk reads [from, to) of p in one read.
func (pr *packReader) loadChunk(p *packFile, from, to int64) error {
	pr.chunkPack = nil
	if n := int(to - from); cap(pr.chunk) < n {
		pr.chunk = make([]byte, n)
	} else {
		pr.chunk = pr.chunk[:n]
	}
	if _, err := p.f.ReadAt(pr.chunk, from); err != nil {
		return err
	}
	pr.chunkPack, pr.chunkAt = p, from
	return nil
}

// dropChunk forgets the chunk after a build; a large one is not kept.
func (pr *packReader) dropChunk() {
	pr.chunkPack = nil
	if cap(pr.chunk) > maxJobBytes {
		pr.chunk = nil
	}
}

// raw returns the stored bytes of the object at off (header included).
func (pr *packReader) raw(p *packFile, off int64) ([]byte, error) {
	end, ok := p.end(off)
	if !ok {
		return nil, errPackObject
	}
	if pr.chunkPack == p && off >= pr.chunkAt && end <= pr.chunkAt+int64(len(pr.chunk)) {
		return pr.chunk[off-pr.chunkAt : end-pr.chunkAt], nil
	}
	n := int(end - off)
	if n > maxJobBytes {
		// A large object is read into its own buffer, not kept.
		buf := make([]byte, n)
		_, err := p.f.ReadAt(buf, off)
		return buf, err
	}
	if cap(pr.scratch) < n {
		pr.scratch = make([]byte, n)
	}
	pr.scratch = pr.scratch[:n]
	if _, err := p.f.ReadAt(pr.scratch, off); err != nil {
		return nil, err
	}
	return pr.scratch, nil
}

// object returns the type and bytes of the object at off in p, delta
// resolved. The bytes may be shared through the cache: never modify them.
func (pr *packReader) object(p *packFile, off int64, depth int) (plumbing.ObjectType, []byte, error) {
	key := cacheKey{p, off}
	if o, ok := pr.ps.cache.get(key); ok {
		return o.typ, o.data, nil
	}
	if depth > maxDeltaDepth {
		return 0, nil, fmt.Errorf("delta chain longer than %d: %w", maxDeltaDepth, errPackObject)
	}
	raw, err := pr.raw(p, off)
	if err != nil {
		return 0, nil, err
	}
	typ, size, raw, err := parseObjectHeader(raw)
	if err != nil {
		return 0, nil, err
	}
	baseP, baseOff := p, int64(0)
	switch typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
	case plumbing.OFSDeltaObject:
		var rel int64
		rel, raw, err = parseDeltaOffset(raw)
		if err != nil || rel <= 0 || rel >= off {
			return 0, nil, errPackObject
		}
		baseOff = off - rel
	case plumbing.REFDeltaObject:
		if len(raw) < 20 {
			return 0, nil, errPackObject
		}
		var ok bool
		if baseP, _, baseOff, ok = pr.ps.find(plumbing.Hash(raw[:20])); !ok {
			return 0, nil, errPackObject
		}
		raw = raw[20:]
	default:
		return 0, nil, errPackObject
	}
	data, err := pr.inflate(raw, size)
	if err != nil {
		return 0, nil, err
	}
	if typ == plumbing.OFSDeltaObject || typ == plumbing.REFDeltaObject {
		baseType, base, err := pr.object(baseP, baseOff, depth+1)
		if err != nil {
			return 0, nil, err
		}
		if data, err = packfile.PatchDelta(base, data); err != nil {
			return 0, nil, err
		}
		typ = baseType
	}
	pr.ps.cache.put(key, cachedObject{typ: typ, data: data})
	return typ, data, nil
}

// inflate decompresses exactly size bytes of the zlib stream in raw.
func (pr *packReader) inflate(raw []byte, size int64) ([]byte, error) {
	// zlib expands at most about 1032:1; a larger size is a corrupt header.
	if size < 0 || size > int64(len(raw))*1100+1024 {
		return nil, errPackObject
	}
	pr.br.Reset(raw)
	if pr.zr == nil {
		zr, err := zlib.NewReader(&pr.br)
		if err != nil {
			return nil, err
		}
		pr.zr = zr
	} else if err := pr.zr.(zlib.Resetter).Reset(&pr.br, nil); err != nil {
		return nil, err
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(pr.zr, data); err != nil {
		return nil, err
	}
	return data, nil
}

// parseObjectHeader reads a pack object's type and (inflated) size.
func parseObjectHeader(b []byte) (plumbing.ObjectType, int64, []byte, error) {
	if len(b) == 0 {
		return 0, 0, nil, errPackObject
	}
	c := b[0]
	typ := plumbing.ObjectType((c >> 4) & 7)
	size := int64(c & 15)
	shift := uint(4)
	i := 1
	for c&0x80 != 0 {
		if i >= len(b) || shift > 56 {
			return 0, 0, nil, errPackObject
		}
		c = b[i]
		i++
		size |= int64(c&0x7f) << shift
		shift += 7
	}
	return typ, size, b[i:], nil
}

// parseDeltaOffset reads an OFS_DELTA's distance back to its base.
func parseDeltaOffset(b []byte) (int64, []byte, error) {
	if len(b) == 0 {
		return 0, nil, errPackObject
	}
	c := b[0]
	off := int64(c & 0x7f)
	i := 1
	for c&0x80 != 0 {
		if i >= len(b) || off > 1<<55 {
			return 0, nil, errPackObject
		}
		c = b[i]
		i++
		off = ((off + 1) << 7) | int64(c&0x7f)
	}
	return off, b[i:], nil
}
