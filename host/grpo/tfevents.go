package grpo

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// TensorBoard reads event files: TFRecord framing (length, masked CRC-32C
// of the length, the record, masked CRC-32C of the record) around
// tensorflow.Event protos. We write the few fields scalars need by hand
// (Event: wall_time = 1, step = 2, file_version = 3, summary = 5;
// Summary.value = 1; Summary.Value: tag = 1, simple_value = 2) instead of
// depending on TensorFlow's generated code.

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func maskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return ((c >> 15) | (c << 17)) + 0xa282ead8
}

func writeRecord(w io.Writer, data []byte) error {
	var hdr [12]byte
	binary.LittleEndian.PutUint64(hdr[:8], uint64(len(data)))
	binary.LittleEndian.PutUint32(hdr[8:], maskedCRC(hdr[:8]))
	var foot [4]byte
	binary.LittleEndian.PutUint32(foot[:], maskedCRC(data))
	for _, b := range [][]byte{hdr[:], data, foot[:]} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func eventHeader(wall float64) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, math.Float64bits(wall))
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	return protowire.AppendString(b, "brain.Event:2")
}

// scalarEvent encodes an Event with one scalar per tag.
func scalarEvent(wall float64, step int64, tags []string, vals []float64) []byte {
	var sum []byte
	for i, tag := range tags {
		var v []byte
		v = protowire.AppendTag(v, 1, protowire.BytesType)
		v = protowire.AppendString(v, tag)
		v = protowire.AppendTag(v, 2, protowire.Fixed32Type)
		v = protowire.AppendFixed32(v, math.Float32bits(float32(vals[i])))
		sum = protowire.AppendTag(sum, 1, protowire.BytesType)
		sum = protowire.AppendBytes(sum, v)
	}
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, math.Float64bits(wall))
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(step))
	b = protowire.AppendTag(b, 5, protowire.BytesType)
	return protowire.AppendBytes(b, sum)
}

// readRecords splits a TFRecord stream, checking both CRCs (for tests and
// for anyone debugging an event file).
func readRecords(b []byte) ([][]byte, error) {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 12 {
			return nil, io.ErrUnexpectedEOF
		}
		n := binary.LittleEndian.Uint64(b[:8])
		if maskedCRC(b[:8]) != binary.LittleEndian.Uint32(b[8:12]) || uint64(len(b)) < 16+n {
			return nil, io.ErrUnexpectedEOF
		}
		data := b[12 : 12+n]
		if maskedCRC(data) != binary.LittleEndian.Uint32(b[12+n:16+n]) {
			return nil, io.ErrUnexpectedEOF
		}
		out = append(out, data)
		b = b[16+n:]
	}
	return out, nil
}
