package cppfront

import (
	"bytes"
	"errors"
	"io"
)

// vfMarkers are byte strings of which at least one occurs in every file that
// can hold VF code. HasVFMarker looks for them without parsing.
var vfMarkers = [][]byte{
	[]byte("__simd_vf__"), []byte("__simd_callee__"), []byte("__simd_caller__"), []byte("__VEC_SCOPE__"),
	[]byte("__simt_vf__"), []byte("__simt_callee__"),
	[]byte("RegTensor"), []byte("MaskReg"), []byte("UnalignReg"), []byte("AddrReg"),
	[]byte("vector_float"), []byte("vector_half"), []byte("vector_bool"), []byte("vector_int"), []byte("vector_uint"),
	[]byte("vector_bfloat16"), []byte("vector_load_unalign"), []byte("vector_store_unalign"), []byte("vector_align"),
}

// markerAnchors group the markers by a substring they share, so that the
// scan makes four passes over a file instead of one per marker (19): in
// operator repositories most files hold no marker, and this scan is all
// ascvet does with them. Every marker contains its group's anchor.
//
// A pass costs little when its anchor starts with a byte that is rare in
// C++ (bytes.Index looks for the first byte, then checks the rest), and
// much when it starts with _: over the 365 MB of C++ in the CANN
// repositories, "__VEC_SCOPE__" takes 151 ms and "VEC_SCOPE__" 40 ms
// (best of five). "__sim" (141 ms) has no such substring common to its
// five markers that scans faster in one pass.
var markerAnchors = func() []anchor {
	groups := []anchor{{text: []byte("__sim")}, {text: []byte("VEC_SCOPE__")}, {text: []byte("Reg")}, {text: []byte("vector_")}}
	for _, m := range vfMarkers {
		g := -1
		for k := range groups {
			if bytes.Contains(m, groups[k].text) {
				g = k
				break
			}
		}
		if g < 0 {
			panic("internal error: VF marker " + string(m) + " has no anchor")
		}
		groups[g].markers = append(groups[g].markers, m)
		groups[g].offsets = append(groups[g].offsets, bytes.Index(m, groups[g].text))
	}
	return groups
}()

// anchor is a substring shared by some markers.
type anchor struct {
	text    []byte   // the shared substring
	markers [][]byte // the markers that contain it
	offsets []int    // where it first occurs in each marker
}

// maxMarkerLen is the length of the longest marker.
var maxMarkerLen = func() int {
	n := 0
	for _, m := range vfMarkers {
		n = max(n, len(m))
	}
	return n
}()

// HasVFMarker reports, from a byte scan alone, whether src may contain VF
// code. Files for which it is false hold no VF region and need no parse.
func HasVFMarker(src []byte) bool {
	for _, a := range markerAnchors {
		for i := 0; i < len(src); {
			k := bytes.Index(src[i:], a.text)
			if k < 0 {
				break
			}
			at := i + k
			for j, m := range a.markers {
				if s := at - a.offsets[j]; s >= 0 && bytes.HasPrefix(src[s:], m) {
					return true
				}
			}
			i = at + 1
		}
	}
	return false
}

// HasVFMarkerReader is HasVFMarker over everything r yields, read in
// chunks of size bytes (at least a few KB), so that a file too big to be
// parsed can still be told free of VF code without holding it in memory.
func HasVFMarkerReader(r io.Reader, size int) (bool, error) {
	keep := maxMarkerLen - 1 // a marker may straddle two chunks
	buf := make([]byte, max(size, 4*maxMarkerLen))
	have := 0
	for {
		n, err := io.ReadFull(r, buf[have:])
		have += n
		if HasVFMarker(buf[:have]) {
			return true, nil
		}
		switch {
		case err == nil:
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return false, nil
		default:
			return false, err
		}
		have = copy(buf, buf[have-keep:have])
	}
}
