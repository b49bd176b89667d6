// Command irdump prints the IR of C++ files, or with -corpus measures
// lowering coverage over a list of files. It is a development tool.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/token"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
)

func main() {
	corpus := flag.String("corpus", "", "file with one path per line: print coverage figures")
	flag.Parse()
	if *corpus != "" {
		measure(*corpus)
		return
	}
	fset := token.NewFileSet()
	for _, p := range flag.Args() {
		src, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			continue
		}
		f, err := cppfront.ParseFile(fset, p, src)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		_ = ir.Fprint(os.Stdout, fset, f)
		for _, e := range ir.Verify(f) {
			fmt.Println("VERIFY:", e)
		}
	}
}

func measure(list string) {
	lf, err := os.Open(list)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var paths []string
	sc := bufio.NewScanner(lf)
	for sc.Scan() {
		paths = append(paths, sc.Text())
	}
	type res struct {
		regions, errRegions, simt, loops, instrs, unknown, calls int
		names                                                    map[string]int
		defined                                                  map[string]bool
		errFiles                                                 []string
		verify                                                   []error
	}
	var mu sync.Mutex
	total := res{names: map[string]int{}, defined: map[string]bool{}}
	var bytes int64
	ch := make(chan string)
	var wg sync.WaitGroup
	t0 := time.Now()
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range ch {
				src, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				fset := token.NewFileSet()
				f, _ := cppfront.ParseFile(fset, p, src)
				r := res{names: map[string]int{}}
				for _, fn := range f.Funcs {
					if !fn.Kind.Analysed() {
						r.simt++
						continue
					}
					r.regions++
					if len(fn.Errors) > 0 {
						r.errRegions++
						r.errFiles = append(r.errFiles, fmt.Sprintf("%s %s", fset.Position(fn.Errors[0]), fn.Name))
					}
					r.loops += len(fn.Loops)
					r.instrs += len(fn.Instrs)
					for _, in := range fn.Instrs {
						if in.Op == ir.OpCall {
							continue
						}
						r.calls++
						if in.Op == ir.OpUnknown {
							r.unknown++
							r.names[in.Name]++
						}
					}
				}
				v := ir.Verify(f)
				mu.Lock()
				bytes += int64(len(src))
				total.regions += r.regions
				total.errRegions += r.errRegions
				total.simt += r.simt
				total.loops += r.loops
				total.instrs += r.instrs
				total.unknown += r.unknown
				total.calls += r.calls
				total.errFiles = append(total.errFiles, r.errFiles...)
				total.verify = append(total.verify, v...)
				for k, n := range r.names {
					total.names[k] += n
				}
				for _, d := range f.Defined {
					total.defined[d] = true
					if k := strings.LastIndex(d, "::"); k >= 0 {
						total.defined[d[k+2:]] = true
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range paths {
		ch <- p
	}
	close(ch)
	wg.Wait()
	fmt.Printf("files %d bytes %d regions %d errRegions %d (%.2f%%) simt %d loops %d instrs %d calls %d unknown %d (%.2f%%) verify-errors %d seconds %.1f\n",
		len(paths), bytes, total.regions, total.errRegions, 100*float64(total.errRegions)/float64(max(total.regions, 1)), total.simt,
		total.loops, total.instrs, total.calls, total.unknown, 100*float64(total.unknown)/float64(max(total.calls, 1)), len(total.verify), time.Since(t0).Seconds())
	helpers := 0
	for k, n := range total.names {
		last := k
		if i := strings.LastIndexAny(k, ":."); i >= 0 {
			last = k[i+1:]
		}
		if total.defined[k] || total.defined[last] {
			helpers += n
			delete(total.names, k)
		}
	}
	fmt.Printf("tree-wide helpers %d; unknown excluding them %d (%.2f%% of %d)\n", helpers, total.unknown-helpers,
		100*float64(total.unknown-helpers)/float64(max(total.calls-helpers, 1)), total.calls-helpers)
	type kv struct {
		k string
		n int
	}
	var kvs []kv
	for k, n := range total.names {
		kvs = append(kvs, kv{k, n})
	}
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].n > kvs[j].n })
	for i, x := range kvs {
		if i >= 60 {
			break
		}
		fmt.Printf("  %6d %s\n", x.n, x.k)
	}
	sort.Strings(total.errFiles)
	for i, e := range total.errFiles {
		if i >= 40 {
			break
		}
		fmt.Println("  ERR", e)
	}
	for i, e := range total.verify {
		if i >= 20 {
			break
		}
		fmt.Println("  VERIFY", e)
	}
}
