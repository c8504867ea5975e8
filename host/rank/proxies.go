package rank

// FeaturizerPaperProxies names the featurizer that turns our measured
// features into thresholded proxies in the manner of the CudaPerf paper
// (its Appendix A.4–A.11), the control "the paper's text proxies".
const FeaturizerPaperProxies = "paper-proxies"

// PaperFeatures is the paper's 11-dimensional vector, in its order.
var PaperFeatures = []string{"coal", "ai", "occ", "div", "xfer", "atomics", "sync", "kernels", "tpb", "gmem", "ops"}

// PaperProxies thresholds the paper's 11 features the way the paper does.
// Only the occupancy proxy is given exactly by the paper (1.0 when threads
// per block are in [128, 256], else −0.3); the other cut points are ours,
// chosen once, before any evaluation, at the values a CUDA programmer
// would name: coalesced when at least 80% of the ideal sectors, compute
// heavy at 1 FLOP/byte, and presence (> 0) for counts. A feature the
// analysis could not determine stays absent.
func PaperProxies(v Vector) Vector {
	out := Vector{}
	step := func(name string, cut float64) {
		if x, ok := v[name]; ok {
			out[name] = b2f(x >= cut)
		}
	}
	step("coal", 0.8)
	step("ai", 1)
	if tpb, ok := v["tpb"]; ok {
		out["occ"] = -0.3
		if tpb >= 128 && tpb <= 256 {
			out["occ"] = 1
		}
		out["tpb"] = b2f(tpb >= 128)
	}
	for _, name := range []string{"div", "xfer", "atomics", "sync"} {
		if x, ok := v[name]; ok {
			out[name] = b2f(x > 0)
		}
	}
	step("kernels", 2)
	step("gmem", 8)
	step("ops", 16)
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
