package events

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Reading an object with ObjectStore.Get creates an ordered consumer on the
// server for its chunks and deletes it after: per read, a consumer create,
// its assignment and a delete. A fleet taking a release reads the record
// and the changed files at once on every executor, so a thousand executors
// make thousands of consumers a second and the server spends its time on
// them (docs/benchmarks.md, "fleet"). Small objects are read here instead
// with the stream's message get, which needs no consumer: the meta is the
// last message on $O.<bucket>.M.<base64url(name)> and the chunks are the
// messages on $O.<bucket>.C.<nuid>, in order. Object streams made by
// nats.go allow direct gets, which any replica answers; on a stream that
// does not, the same call asks the stream's leader.

// directMaxChunks and directMaxBytes bound what readDirect reads: one
// request a chunk, held in memory. Larger objects stream through Get.
const (
	directMaxChunks = 8
	directMaxBytes  = 1 << 20
	// leaderGetTimeout bounds the leader's get when the caller set no
	// deadline, as nats.go bounds its own API requests.
	leaderGetTimeout = 5 * time.Second
)

// errUseGet: readDirect cannot read this object, or what it read is not
// the object its meta describes (a replica behind, an object replaced
// meanwhile, a damaged chunk); the ordinary Get decides.
var errUseGet = errors.New("read the object with a consumer")

// ObjectReads counts how this connection read objects.
type ObjectReads struct {
	Direct   int64 // read with message gets, no consumer
	Consumer int64 // read with ObjectStore.Get: large, a link, or a direct read that did not verify
}

// ObjectReads returns how many objects this connection read each way.
func (b *Bus) ObjectReads() ObjectReads {
	return ObjectReads{Direct: b.directReads.Load(), Consumer: b.consumerReads.Load()}
}

// readObject returns a reader of object name in bucket, or an error
// wrapping jetstream.ErrObjectNotFound when it is absent or deleted. Small
// objects are read whole without a consumer and verified against their
// meta (size, chunk count, SHA-256 digest); the rest, and any direct read
// that does not verify, go through ObjectStore.Get, which checks the
// digest as it reads.
func (b *Bus) readObject(ctx context.Context, bucket, name string) (io.ReadCloser, error) {
	data, err := b.readDirect(ctx, bucket, name)
	if err == nil {
		b.directReads.Add(1)
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	if !errors.Is(err, errUseGet) {
		return nil, err
	}
	os, err := b.obj(ctx, bucket)
	if err != nil {
		return nil, err
	}
	b.consumerReads.Add(1)
	return os.Get(ctx, name)
}

// readDirect reads object name of bucket with message gets. It fails with
// jetstream.ErrObjectNotFound when the meta is absent or marks the object
// deleted, and with errUseGet when the object is too large for it, is a
// link, or what it read does not match the meta.
func (b *Bus) readDirect(ctx context.Context, bucket, name string) ([]byte, error) {
	st, err := b.stream(ctx, bucket)
	if err != nil {
		return nil, err
	}
	meta := fmt.Sprintf("$O.%s.M.%s", bucket, base64.URLEncoding.EncodeToString([]byte(name)))
	m, err := st.GetLastMsgForSubject(ctx, meta)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		// A direct get may be answered by a replica that has not caught
		// up with a put just acknowledged (an executor reading the record
		// the controller has just published); the stream's leader has it.
		// Asking it costs a request only for objects not found.
		m, err = b.leaderLastMsg(ctx, "OBJ_"+bucket, meta)
	}
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, jetstream.ErrObjectNotFound
	}
	if err != nil {
		return nil, err
	}
	var info jetstream.ObjectInfo
	if err := json.Unmarshal(m.Data, &info); err != nil {
		return nil, fmt.Errorf("%w: meta of %s: %w", errUseGet, name, err)
	}
	switch {
	case info.Deleted:
		return nil, jetstream.ErrObjectNotFound
	case info.NUID == "" || info.Opts != nil && info.Opts.Link != nil:
		return nil, fmt.Errorf("%w: %s is a link or has no chunks subject", errUseGet, name)
	case info.Chunks > directMaxChunks || info.Size > directMaxBytes:
		return nil, fmt.Errorf("%w: %s has %d chunks, %d bytes", errUseGet, name, info.Chunks, info.Size)
	}
	chunks := fmt.Sprintf("$O.%s.C.%s", bucket, info.NUID)
	data := make([]byte, 0, info.Size)
	// Chunks are stored before their meta, so all of them have lower
	// sequences than m; each get is the next message on their subject.
	next := uint64(1)
	for i := range info.Chunks {
		c, err := st.GetMsg(ctx, next, jetstream.WithGetMsgSubject(chunks))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			// Replaced or deleted since its meta was read, or this get
			// reached a replica behind the one that answered for the
			// meta: Get reads it afresh, through the stream's leader.
			return nil, fmt.Errorf("%w: chunk %d of %d of %s not found", errUseGet, i+1, info.Chunks, name)
		}
		if err != nil {
			return nil, err
		}
		if c.Sequence >= m.Sequence || uint64(len(data)+len(c.Data)) > info.Size {
			return nil, fmt.Errorf("%w: chunk %d of %s is not one of its meta's", errUseGet, i+1, name)
		}
		data = append(data, c.Data...)
		next = c.Sequence + 1
	}
	sum := sha256.Sum256(data)
	if uint64(len(data)) != info.Size || info.Digest != "SHA-256="+base64.URLEncoding.EncodeToString(sum[:]) {
		return nil, fmt.Errorf("%w: %s read as %d bytes that do not match its meta (%d bytes, %s)", errUseGet, name, len(data), info.Size, info.Digest)
	}
	return data, nil
}

// stream returns the handle of bucket's object stream, looking it up once;
// its cached config says whether gets may be direct.
func (b *Bus) stream(ctx context.Context, bucket string) (jetstream.Stream, error) {
	b.mu.Lock()
	st, ok := b.streams[bucket]
	b.mu.Unlock()
	if ok {
		return st, nil
	}
	st, err := b.js.Stream(ctx, "OBJ_"+bucket)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		err = fmt.Errorf("%w: %w", jetstream.ErrBucketNotFound, err)
	}
	if err != nil {
		// No hint here: the callers add it.
		return nil, fmt.Errorf("open object store %s at %s: %w", bucket, b.url, err)
	}
	b.mu.Lock()
	b.streams[bucket] = st
	b.mu.Unlock()
	return st, nil
}

// leaderLastMsg is the last message on subject in stream as its leader
// has it: the stream's message get without direct, which only the leader
// answers. jetstream.Stream makes every get direct on a stream that allows
// them, so this is the raw JetStream API request.
func (b *Bus) leaderLastMsg(ctx context.Context, stream, subject string) (*jetstream.RawStreamMsg, error) {
	req, err := json.Marshal(struct {
		LastBySubject string `json:"last_by_subj"`
	}{subject})
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, leaderGetTimeout)
		defer cancel()
	}
	reply, err := b.nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET."+stream, req)
	if err != nil {
		return nil, fmt.Errorf("read %s from the leader of stream %s: %w", subject, stream, err)
	}
	var resp struct {
		Error *jetstream.APIError `json:"error"`
		Msg   *struct {
			Subject  string    `json:"subject"`
			Sequence uint64    `json:"seq"`
			Data     []byte    `json:"data"`
			Time     time.Time `json:"time"`
		} `json:"message"`
	}
	if err := json.Unmarshal(reply.Data, &resp); err != nil {
		return nil, fmt.Errorf("read %s from the leader of stream %s: %w", subject, stream, err)
	}
	switch {
	case resp.Error != nil && resp.Error.ErrorCode == jetstream.JSErrCodeMessageNotFound:
		return nil, jetstream.ErrMsgNotFound
	case resp.Error != nil:
		return nil, fmt.Errorf("read %s from the leader of stream %s: %w", subject, stream, resp.Error)
	case resp.Msg == nil:
		return nil, fmt.Errorf("read %s from the leader of stream %s: %w", subject, stream, jetstream.ErrInvalidJetStreamResponse)
	}
	return &jetstream.RawStreamMsg{Subject: resp.Msg.Subject, Sequence: resp.Msg.Sequence, Data: resp.Msg.Data, Time: resp.Msg.Time}, nil
}
