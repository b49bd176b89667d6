package cppfront

import (
	"strings"
	"testing"
)

// TestLazyPrototypes: planLazy blanks the declaration-level prototypes the
// scan is sure of, keeps every other declaration, and the IR is the whole
// parse's (constants, class fields and aliases included).
func TestLazyPrototypes(t *testing.T) {
	const src = `#include "kernel_operator.h"
namespace Ops {
constexpr uint32_t kLen = 64;
static constexpr uint32_t kDirect(32);
using Elem = float;
template <typename T>
__aicore__ inline void CopyIn(int32_t i, T *x);
__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b);
REGISTER_KERNEL(AddCustom);
void (*hook)(int);
extern "C" void Entry(GM_ADDR x);
template <> void Spec<float>(float x);
template void Inst<float>(float x);
__simd_vf__ inline void Declared(__ubuf__ float *dst, uint32_t n);
int Table(int a) = delete;
void Split(int a,
#if defined(X)
    int b,
#endif
    int c);
class K {
public:
    __aicore__ inline K() {}
    __aicore__ inline void Init(GM_ADDR x);
    __aicore__ inline LocalTensor<Elem> Get() const;
    __aicore__ inline void Set(uint32_t n) &&;
    friend void Peek(K &k);
    K &operator=(const K &o);
    const uint32_t *Data();
private:
    uint32_t tile_ = 64;
    AscendC::GlobalTensor<Elem> xGm_;
};
__simd_vf__ inline void Declared(__ubuf__ float *dst, uint32_t n)
{
    AscendC::Reg::RegTensor<float> v;
    for (uint16_t i = 0; i < n / kLen; i++) {
        AscendC::Reg::LoadAlign(v, dst + i * kLen);
    }
}
} // namespace Ops
`
	clean, blanks := prepass([]byte(src))
	p := planLazy(lexText(clean), blanks, nil)
	if p == nil {
		t.Fatal("nothing blanked")
	}
	text := string(p.text)
	for _, gone := range []string{"void CopyIn(int32_t i, T *x);", "template <typename T>", "uint32_t CeilDiv(uint32_t a, uint32_t b);",
		"void Init(GM_ADDR x);", "LocalTensor<Elem> Get() const;", "void Set(uint32_t n) &&;"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q is not blanked", gone)
		}
	}
	for _, kept := range []string{"constexpr uint32_t kLen = 64;", "static constexpr uint32_t kDirect(32);", "using Elem = float;",
		"REGISTER_KERNEL(AddCustom);", "void (*hook)(int);", `extern "C" void Entry(GM_ADDR x);`,
		"template <> void Spec<float>(float x);", "template void Inst<float>(float x);",
		"void Declared(__ubuf__ float *dst, uint32_t n);", "int Table(int a) = delete;", "int c);",
		"public:", "inline K() {}", "friend void Peek(K &k);", "K &operator=(const K &o);", "const uint32_t *Data();",
		"private:", "uint32_t tile_ = 64;", "AscendC::GlobalTensor<Elem> xGm_;"} {
		if !strings.Contains(text, strings.ReplaceAll(kept, "__ubuf__", "        ")) && !strings.Contains(text, kept) {
			t.Errorf("%q is blanked", kept)
		}
	}
	// The blanked prototypes are holes the parse skips, in order.
	for i := 1; i < len(p.holes); i++ {
		if p.holes[i][0] < p.holes[i-1][1] {
			t.Errorf("holes %v and %v overlap or are out of order", p.holes[i-1], p.holes[i])
		}
	}
	lazy := lazyHolds(t, "protos.asc", src)
	var whole string
	withWhole(func() { whole = irText(t, "protos.asc", []byte(src)) })
	if lazy != whole {
		t.Errorf("the IR differs when parsed lazily:\n%s", firstDiff(whole, lazy))
	}
	if !strings.Contains(lazy, "LoadAlign") {
		t.Errorf("the region is not lowered:\n%s", lazy)
	}
}
