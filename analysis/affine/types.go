package affine

import (
	"strings"

	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// sizes of CUDA scalar and vector types in bytes, as sizeof gives them on
// the device.
var sizes = map[string]int64{
	"bool": 1, "char": 1, "signed char": 1, "unsigned char": 1, "int8_t": 1, "uint8_t": 1, "char1": 1, "uchar1": 1,
	"__nv_fp8_e4m3": 1, "__nv_fp8_e5m2": 1,
	"short": 2, "unsigned short": 2, "short int": 2, "int16_t": 2, "uint16_t": 2, "half": 2, "__half": 2,
	"__nv_bfloat16": 2, "nv_bfloat16": 2, "char2": 2, "uchar2": 2, "short1": 2, "ushort1": 2,
	"int": 4, "unsigned": 4, "unsigned int": 4, "signed": 4, "signed int": 4, "float": 4, "int32_t": 4, "uint32_t": 4,
	"half2": 4, "__half2": 4, "__nv_bfloat162": 4, "nv_bfloat162": 4, "char4": 4, "uchar4": 4, "short2": 4, "ushort2": 4,
	"int1": 4, "uint1": 4, "float1": 4, "char3": 3, "uchar3": 3, "short3": 6, "ushort3": 6,
	"long": 8, "unsigned long": 8, "long int": 8, "long long": 8, "unsigned long long": 8, "long long int": 8,
	"unsigned long long int": 8, "int64_t": 8, "uint64_t": 8, "size_t": 8, "ptrdiff_t": 8, "double": 8,
	"float2": 8, "int2": 8, "uint2": 8, "short4": 8, "ushort4": 8, "double1": 8, "long1": 8, "ulong1": 8,
	"longlong1": 8, "ulonglong1": 8,
	"float3": 12, "int3": 12, "uint3": 12,
	"float4": 16, "int4": 16, "uint4": 16, "double2": 16, "long2": 16, "ulong2": 16, "longlong2": 16, "ulonglong2": 16,
	"double3": 24, "long3": 24, "longlong3": 24,
	"double4": 32, "long4": 32, "ulong4": 32, "longlong4": 32, "ulonglong4": 32,
}

// SizeOf returns sizeof(typ) for CUDA scalar and vector types. Qualifiers
// (const, volatile), "std::" and extra spaces are ignored.
func SizeOf(typ string) (int64, bool) {
	// Every access and declaration asks: look the type up without
	// splitting it into a new list of words when it is ASCII.
	if n, ok := sizes[typ]; ok {
		return n, true
	}
	if ascii(typ) {
		var buf [64]byte
		key := buf[:0]
		for i := 0; i < len(typ); {
			for i < len(typ) && asciiSpace(typ[i]) {
				i++
			}
			j := i
			for j < len(typ) && !asciiSpace(typ[j]) {
				j++
			}
			if w := typ[i:j]; w != "" && w != "const" && w != "volatile" && w != "__restrict__" {
				if len(key) > 0 {
					key = append(key, ' ')
				}
				key = append(key, strings.TrimPrefix(w, "std::")...)
			}
			i = j
		}
		n, ok := sizes[string(key)]
		return n, ok
	}
	fields := strings.Fields(typ)
	kept := fields[:0]
	for _, f := range fields {
		if f == "const" || f == "volatile" || f == "__restrict__" {
			continue
		}
		kept = append(kept, strings.TrimPrefix(f, "std::"))
	}
	n, ok := sizes[strings.Join(kept, " ")]
	return n, ok
}

// Squeezed returns the source of n with white space trimmed and runs of it
// made one space (strings.Join(strings.Fields(text), " ")): types as
// written, "unsigned  int" and "unsigned int" alike. It copies the text
// once, and only splits it when it is not so already.
func Squeezed(n *syntax.Node, src []byte) string {
	if n == nil || int(n.EndByte()) > len(src) || n.StartByte() > n.EndByte() {
		return ""
	}
	return squeezedBytes(src[n.StartByte():n.EndByte()])
}

func squeezedBytes(b []byte) string {
	for i, c := range b {
		if c >= 0x80 || asciiSpace(c) && (c != ' ' || i == 0 || i == len(b)-1 || b[i-1] == ' ') {
			return strings.Join(strings.Fields(string(b)), " ")
		}
	}
	return string(b)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiSpace is unicode.IsSpace (what strings.Fields splits on) for ASCII.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// VectorWidth returns the number of scalar components of a CUDA vector
// type (float4 → 4, half2 → 2) and 1 for scalars.
func VectorWidth(typ string) int {
	t := strings.TrimSpace(typ)
	if t == "" {
		return 1
	}
	if _, ok := sizes[t]; !ok {
		return 1
	}
	switch t[len(t)-1] {
	case '2':
		return 2
	case '3':
		return 3
	case '4':
		return 4
	}
	return 1
}
