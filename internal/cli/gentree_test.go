package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront"
)

// A generated operator repository, for the scale benchmark and the -j
// test. Like the public CANN repositories, it is mostly host code (tiling
// functions, operator definitions, headers) with a few VF kernels: of every
// vfEvery files one is a kernel copied from the repository's fixtures.
//
//	<root>/<category>/<op>/op_host/<op>_tiling.cpp    host code
//	<root>/<category>/<op>/op_host/<op>_def.cpp       host code
//	<root>/<category>/<op>/op_kernel/<op>.h           host-side kernel header
//	<root>/<category>/<op>/op_kernel/<op>_vf.asc      a VF kernel (fixture)
//	...

// vfFixtures returns the sources of every fixture with VF code.
func vfFixtures(tb testing.TB) [][]byte {
	tb.Helper()
	var pats = []string{"../../testdata/kernels/*.asc", "../../cppfront/testdata/*.asc", "../../analyzers/*/testdata/*.asc", "../../analyzers/*/testdata/*.cpp"}
	var out [][]byte
	for _, pat := range pats {
		m, err := filepath.Glob(pat)
		if err != nil {
			tb.Fatal(err)
		}
		for _, p := range m {
			src, err := os.ReadFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			if cppfront.HasVFMarker(src) {
				out = append(out, src)
			}
		}
	}
	if len(out) < 10 {
		tb.Fatalf("only %d VF fixtures", len(out))
	}
	return out
}

// hostFile returns the i-th host source: tiling code of a few KB that holds
// no VF marker (but "Register", "OpRegistry" and "vector<" that look close).
func hostFile(i int) string {
	var b strings.Builder
	op := fmt.Sprintf("Op%04d", i)
	fmt.Fprintf(&b, `/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * This file is a part of the CANN Open Software; licensed under CANN Open Software License Agreement Version 2.0.
 * \file %[1]s_tiling.cpp
 */
#include <vector>
#include <string>
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "%[1]s_tiling.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE_%[2]d = 32;
constexpr uint32_t BUFFER_NUM = 2;
static const std::vector<int64_t> kSupported%[2]d = {1, 2, 4, 8, 16};

static ge::graphStatus TilingFunc%[2]d(gert::TilingContext* context)
{
    %[1]sTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    const gert::StorageShape* xShape = context->GetInputShape(0);
    int64_t total = 1;
    for (size_t d = 0; d < xShape->GetStorageShape().GetDimNum(); ++d) {
        total *= xShape->GetStorageShape().GetDim(d);
    }
`, op, i)
	for k := range 8 + i%24 {
		fmt.Fprintf(&b, `    if (total %% %[1]d == 0 && coreNum > %[2]d) {
        tiling.set_tileNum(total / (BLOCK_SIZE_%[3]d * %[1]d));
        tiling.set_blockDim(std::min<uint32_t>(coreNum, %[2]d));
        OP_LOGD(context->GetNodeName(), "tile %%ld on %%u cores", total, coreNum);
    }
`, k+1, k%8+1, i)
	}
	fmt.Fprintf(&b, `    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = ubSize / BUFFER_NUM;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class %[1]s : public OpDef {
public:
    explicit %[1]s(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc%[2]d);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(%[1]s);
} // namespace ops
`, op, i)
	return b.String()
}

// genTree writes n files under root, one in vfEvery a VF kernel, and
// returns how many are VF kernels.
func genTree(tb testing.TB, root string, n, vfEvery int) int {
	tb.Helper()
	fixtures := vfFixtures(tb)
	kinds := []string{"op_host/%s_tiling.cpp", "op_host/%s_def.cpp", "op_kernel/%s.h", "op_host/%s_infershape.cpp", "op_kernel/%s_impl.h"}
	vf := 0
	for i := range n {
		op := fmt.Sprintf("op%04d", i/10)
		dir := filepath.Join(root, fmt.Sprintf("cat%02d", i/1000), op)
		var name, data string
		if i%vfEvery == vfEvery-1 {
			name = filepath.Join(dir, "op_kernel", fmt.Sprintf("%s_vf%d.asc", op, i%10))
			data = fmt.Sprintf("// generated kernel %d\n%s", i, fixtures[vf%len(fixtures)])
			vf++
		} else {
			name = filepath.Join(dir, fmt.Sprintf(kinds[i%len(kinds)], fmt.Sprintf("%s_%d", op, i%10)))
			data = hostFile(i)
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return vf
}

var (
	genTreeDir   = flag.String("gentree", "", "TestGenTree also writes a generated tree of -gentree-files files into this directory, e.g. to time the ascvet binary on it")
	genTreeFiles = flag.Int("gentree-files", 20000, "files of the -gentree tree (one in 20 a VF kernel)")
)

// TestGenTree: the generated host code holds no VF marker, and the tree
// has the share of kernels asked for. With -gentree DIR it writes a tree
// there for measurements by hand:
//
//	go test ./internal/cli -run TestGenTree -gentree /tmp/tree20k -gentree-files 20000
//	/usr/bin/time -v ascvet -j 2 /tmp/tree20k
func TestGenTree(t *testing.T) {
	if *genTreeDir != "" {
		vf := genTree(t, *genTreeDir, *genTreeFiles, 20)
		t.Logf("%d files, %d VF kernels, in %s", *genTreeFiles, vf, *genTreeDir)
	}
	for i := range 50 {
		if cppfront.HasVFMarker([]byte(hostFile(i))) {
			t.Fatalf("host file %d has a VF marker", i)
		}
	}
	dir := t.TempDir()
	if vf := genTree(t, dir, 200, 20); vf != 10 {
		t.Errorf("%d kernels, want 10", vf)
	}
}
