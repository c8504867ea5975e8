package pluginhost

import (
	"bytes"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

func TestSplitFiles(t *testing.T) {
	file := func(n int) *pluginv1.SourceFile { return &pluginv1.SourceFile{Content: bytes.Repeat([]byte("x"), n)} }
	for _, tc := range []struct {
		name  string
		sizes []int
		want  []span
	}{
		{"no files: one empty chunk", nil, []span{{0, 0}}},
		{"fits", []int{10, 20, 30}, []span{{0, 3}}},
		{"exactly the limit", []int{50, 50}, []span{{0, 2}}},
		{"cut before the file that overflows", []int{60, 30, 20, 90}, []span{{0, 2}, {2, 3}, {3, 4}}},
		{"a file over the limit is a chunk of its own", []int{10, 250, 10}, []span{{0, 1}, {1, 2}, {2, 3}}},
	} {
		var files []*pluginv1.SourceFile
		for _, n := range tc.sizes {
			files = append(files, file(n))
		}
		if got := splitFiles(files, 100); !slices.Equal(got, tc.want) {
			t.Errorf("%s: splitFiles(%v) = %v, want %v", tc.name, tc.sizes, got, tc.want)
		}
	}
}

// TestChunkRequestKeepsEveryField sets every field of AnalyzeRequest and
// checks that a chunk request carries all of them but the files: a field
// added to the contract and forgotten in chunkRequest fails here.
func TestChunkRequestKeepsEveryField(t *testing.T) {
	req := &pluginv1.AnalyzeRequest{}
	m := req.ProtoReflect()
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		switch {
		case fd.IsMap() && fd.MapValue().Kind() == protoreflect.Int64Kind:
			m.Mutable(fd).Map().Set(protoreflect.ValueOfString("k").MapKey(), protoreflect.ValueOfInt64(7))
		case fd.IsMap():
			m.Mutable(fd).Map().Set(protoreflect.ValueOfString("k").MapKey(), protoreflect.ValueOfString("v"))
		case fd.IsList() && fd.Message() != nil:
			l := m.Mutable(fd).List()
			for range 3 {
				l.Append(l.NewElement())
			}
		case fd.IsList():
			m.Mutable(fd).List().Append(protoreflect.ValueOfString("x"))
		case fd.Message() != nil:
			m.Mutable(fd)
		default:
			t.Fatalf("field %s: teach this test to set a %v", fd.Name(), fd.Kind())
		}
	}
	req.Files[1].Path = "second.cu"
	got := chunkRequest(req, span{1, 2})
	if len(got.GetFiles()) != 1 || got.GetFiles()[0].GetPath() != "second.cu" {
		t.Fatalf("chunk files = %v, want just second.cu", got.GetFiles())
	}
	want := proto.CloneOf(req)
	want.Files, got.Files = nil, nil
	if !proto.Equal(got, want) {
		t.Errorf("chunk request lost fields:\n got %v\nwant %v", got, want)
	}
}
