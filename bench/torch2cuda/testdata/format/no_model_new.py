from torch.utils.cpp_extension import load_inline

src = "__global__ void k(float *x) { x[0] = 1; }"
ext = load_inline(name="k", cpp_sources="", cuda_sources=src)


class Model:
    pass
